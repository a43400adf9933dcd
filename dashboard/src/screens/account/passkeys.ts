import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { ApiError } from '../../api';

/** The signed-in user's passkeys: the account's, not a workspace's. */
export const PASSKEYS_KEY = ['account', 'passkeys'] as const;

/** Whether this browser can make and use passkeys at all (it may still lack an authenticator). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** The browser's prompt made or signed nothing: why, in words the person can act on. */
export class PasskeyPromptError extends Error {}

function promptWords(error: unknown): string {
  const code = error instanceof WebAuthnError ? error.code : null;
  const name = error instanceof Error ? error.name : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return 'This device or password manager already keeps a passkey for your account.';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError')
    return 'Passkeys do not work at this address. Open the dashboard at its public address (https, or localhost).';
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey prompt was closed or timed out. Try again when you are ready.';
  if (name === 'NotSupportedError' || code?.startsWith('ERROR_AUTHENTICATOR_MISSING'))
    return 'This browser or device cannot keep a passkey that works here.';
  return 'The browser could not use a passkey. Try again.';
}

/** Runs the browser's passkey prompt; a refusal or a cancel becomes a PasskeyPromptError saying why. */
export async function prompt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new PasskeyPromptError(promptWords(error));
  }
}

/** The server did not accept the passkey (one answer for every reason, so it names none). */
export const passkeyRefused = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 401 && error.details?.reason === 'passkey_refused';

type ExtensionResults = { clientExtensionResults: Record<string, unknown> };

/** The browser's prompt to make a passkey from the server's options; its answer as the server takes it. */
export async function createPasskey(optionsJSON: Parameters<typeof startRegistration>[0]['optionsJSON']) {
  const credential = await prompt(() => startRegistration({ optionsJSON }));
  // The browser's extension results are a plain object, as the server's schema declares them.
  return credential as typeof credential & ExtensionResults;
}

/** The browser's prompt to sign with a passkey the options allow (any of this site's, when they name none). */
export async function signWithPasskey(optionsJSON: Parameters<typeof startAuthentication>[0]['optionsJSON']) {
  const credential = await prompt(() => startAuthentication({ optionsJSON }));
  return credential as typeof credential & ExtensionResults;
}
