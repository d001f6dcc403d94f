import { Type } from '@sinclair/typebox';
import addFormatsModule from 'ajv-formats';

// ajv-formats is a CommonJS module whose default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const dateFormat = addFormats.get('date', 'full') as { validate: (value: string) => boolean };

/**
 * A calendar date, YYYY-MM-DD, naming a real day (no 2026-02-30): the `date` format the
 * validator checks, so a route's schema says it and no code repeats it.
 */
export const DateString = (description: string) => Type.String({ format: 'date', description });

/** The same rule for a value that comes by another way than a request (a command-line flag). */
export const isDate = (value: string): boolean => dateFormat.validate(value);
