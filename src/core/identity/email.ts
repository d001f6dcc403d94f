import addFormatsModule from 'ajv-formats';

// ajv-formats is a CommonJS module whose default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const emailFormat = addFormats.get('email', 'full') as RegExp;

/**
 * The one email rule: the `email` format that validates request bodies, so a user the command
 * line adds is one the API can name later (in an individual limit, say).
 */
export const isEmail = (value: string): boolean => value.length <= 320 && emailFormat.test(value);
