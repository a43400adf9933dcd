import crypto from 'node:crypto';

/**
 * The strong ETag of an answer: a hash of its exact UTF-8 bytes, before any compression, so every encoding of
 * one answer carries the same tag. A PATCH's If-Match hashes the resource's answer the same way to compare.
 */
export function entityTag(bytes: Buffer | string): string {
  return `"${crypto.hash('sha1', bytes, 'base64url')}"`;
}

/** The form entityTag gives: a sha1 in base64url (27 characters), in quotes. */
export const ENTITY_TAG = /^"[A-Za-z0-9_-]{27}"$/;
