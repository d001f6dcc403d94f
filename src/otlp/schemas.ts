import { Type } from '@sinclair/typebox';

export const Connections = Type.Object(
  {
    clients: Type.Array(
      Type.Object({
        client: Type.String({ description: "claude-code, codex, gemini-cli or droid (from the records' service.name)" }),
        lastExportAt: Type.String({
          format: 'date-time',
          description: 'When an export with records of the caller from this client last arrived (to the minute)',
        }),
      }),
    ),
  },
  { title: 'Connections' },
);
