/**
 * POST …/imports with XMLHttpRequest: the one browser API that reports the upload's progress and also hands over
 * the answer as it arrives, so the NDJSON progress lines move the bar while the server works.
 */

import { API_BASE, ApiError, csrfHeaders, ws } from '../../api';
import type { ImportFormat, ImportLine, ImportReport } from './import-types';

export type ImportPhase =
  { kind: 'uploading'; fraction: number } | { kind: 'reading'; done: number; total: number | null };

export interface ImportRequest {
  workspaceId: string;
  format: ImportFormat;
  file: File;
  dryRun: boolean;
  onPhase(phase: ImportPhase): void;
}

function envelopeError(status: number, text: string): ApiError {
  try {
    const envelope = JSON.parse(text) as { code?: string; message?: string; details?: Record<string, unknown> };
    return new ApiError(status, envelope.code ?? `HTTP_${status}`, envelope.message ?? '', envelope.details ?? null);
  } catch {
    return new ApiError(status, `HTTP_${status}`, 'The import failed.');
  }
}

/** The import's report, or an ApiError: a refusal's envelope, or the stream's error line (status 200). */
export function requestImport({ workspaceId, format, file, dryRun, onPhase }: ImportRequest): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let read = 0;
    let last: ImportLine | null = null;

    // Only whole lines: the rest of a line still on its way waits for the next event.
    const takeLines = () => {
      const text = xhr.responseText;
      const end = text.lastIndexOf('\n') + 1;
      if (end <= read) return;
      for (const line of text.slice(read, end).split('\n')) {
        if (line === '') continue;
        const parsed = JSON.parse(line) as ImportLine;
        if (parsed.type === 'progress') onPhase({ kind: 'reading', done: parsed.done, total: parsed.total });
        else last = parsed;
      }
      read = end;
    };

    xhr.open('POST', `${API_BASE}${ws(workspaceId, '/imports')}`);
    xhr.setRequestHeader('Accept', 'application/x-ndjson, application/json');
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onPhase({ kind: 'uploading', fraction: event.loaded / event.total });
    };
    xhr.onprogress = () => {
      if (xhr.status === 200) takeLines();
    };
    xhr.onload = () => {
      if (xhr.status !== 200) return reject(envelopeError(xhr.status, xhr.responseText));
      takeLines();
      const end = last as ImportLine | null;
      if (end?.type === 'report') resolve(end.report as ImportReport);
      else if (end?.type === 'error') reject(new ApiError(200, 'IMPORT_FAILED', end.message));
      else
        reject(
          new ApiError(
            0,
            'NETWORK',
            'The answer ended before the report. The import may still be running on the server: check the posts in a while, or run it again (it carries on where it stopped).',
          ),
        );
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.'));
    const form = new FormData();
    form.append('format', format);
    form.append('dryRun', String(dryRun));
    // The file goes last: the server checks the fields before it stores a byte of the file.
    form.append('file', file);
    xhr.send(form);
  });
}

/** Why an import was refused or failed, in words: the size limit and a file the server could not read. */
export function importErrorWords(error: unknown, describe: (error: unknown) => string): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.status === 413) {
    const max = Number(error.details?.maxBytes);
    const limit = Number.isFinite(max) ? ` (${Math.floor(max / 1024 / 1024).toLocaleString('en-US')} MB)` : '';
    return `This file is larger than this server accepts for an import${limit}. Whoever runs the server can raise QUIRE_IMPORT_MAX_BYTES.`;
  }
  if (error.code === 'IMPORT_FAILED') return error.message;
  return describe(error);
}
