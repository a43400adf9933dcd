import { Type, type TLiteral, type TUnion } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The error envelope of the specification, declared on every route so serialization and docs agree. */
export const ErrorEnvelope = Type.Object({
  code: Type.Union(CODES.map((code) => Type.Literal(code))) as TUnion<TLiteral<ErrorCode>[]>,
  message: Type.String(),
  details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});

export const ErrorResponses = {
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
} as const;
