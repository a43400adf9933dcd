/** Uploads through the dashboard media route with XMLHttpRequest, the one browser API that reports upload progress. */

import { API_BASE, ApiError, csrfHeaders, describeError, ws } from '../api';
import type { Media } from '../types';

export interface UploadOptions {
  alt?: string;
  /** Fraction sent, 0 to 1; called as the bytes leave the browser. */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}

function envelopeError(status: number, text: string): ApiError {
  try {
    const envelope = JSON.parse(text) as { code?: string; message?: string; details?: Record<string, unknown> };
    return new ApiError(status, envelope.code ?? `HTTP_${status}`, envelope.message ?? '', envelope.details ?? null);
  } catch {
    return new ApiError(status, `HTTP_${status}`, 'The upload failed.');
  }
}

export function uploadMedia(workspaceId: string, file: File, options: UploadOptions = {}): Promise<Media> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${ws(workspaceId, '/media')}`);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(JSON.parse(xhr.responseText) as Media);
      } else reject(envelopeError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.'));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'The upload was cancelled.'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    if (options.alt) form.append('alt', options.alt);
    // The file goes last: the server reads the text fields before it streams the bytes.
    form.append('file', file);
    xhr.send(form);
  });
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** Why an upload was refused, in words a writer understands (the server's reasons are in details.reason). */
export function uploadErrorWords(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  const details = error.details ?? {};
  switch (details.reason) {
    case 'unsupported_type':
      return 'This type of file cannot be uploaded. Use a JPEG, PNG, GIF, WebP, AVIF or SVG image, a PDF or an MP4 video.';
    case 'too_large':
      return typeof details.maxBytes === 'number'
        ? `The file is too big. Files can be up to ${megabytes(details.maxBytes)}.`
        : 'The file is too big.';
    case 'too_many_pixels': {
      const limit = typeof details.maxPixels === 'number' ? details.maxPixels / 1_000_000 : 40;
      const size =
        typeof details.width === 'number' && typeof details.height === 'number'
          ? ` (${details.width} × ${details.height} pixels)`
          : '';
      return `The image is too large${size}. Images can have up to ${limit} megapixels; make it smaller and try again.`;
    }
    case 'unreadable_image':
    case 'corrupt_image':
      return 'The image looks damaged and could not be read. Export it again and retry.';
    default:
      return describeError(error);
  }
}
