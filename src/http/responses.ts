import { Type } from 'typebox';

/** The error envelope of the specification, declared on every route so serialization and docs agree. */
export const ErrorEnvelope = Type.Object({
  code: Type.String(),
  message: Type.String(),
  details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});

export const ErrorResponses = {
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
} as const;
