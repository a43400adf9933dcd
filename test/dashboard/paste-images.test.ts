import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type PastedUpload = { mediaId: string; alt: string; url: string | null } | { error: string };
interface PasteImages {
  NOT_AN_IMAGE: string;
  uploadPastedImages(
    workspaceId: string,
    files: ReadonlyArray<File | { file: File; alt?: string }>,
    onEach?: (result: PastedUpload, index: number) => void,
    signal?: AbortSignal,
  ): Promise<PastedUpload[]>;
}
// Imported by a path the type check does not follow: the module reaches the browser-only uploader
// (XMLHttpRequest), which the dashboard's own check types (dashboard/tsconfig.json), not the Node one of the tests.
const path = new URL('../../dashboard/src/studio/document/paste-images.ts', import.meta.url).href;
const { NOT_AN_IMAGE, uploadPastedImages } = (await import(/* @vite-ignore */ path)) as PasteImages;

/*
 * uploadPastedImages against a stand-in for the browser's XMLHttpRequest (uploadMedia's transport), answering as
 * the media route does: the upload itself against a real server is the studio's browser test.
 */

interface Sent {
  url: string;
  name: string;
  alt: string | null;
}

let sent: Sent[] = [];
/** The answer to an upload of a file, by its name. */
let answer: (name: string) => { status: number; body: unknown };

class FakeRequest {
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: unknown) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  withCredentials = false;
  private url = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  abort() {
    this.onabort?.();
  }
  send(form: FormData) {
    const file = form.get('file') as File;
    sent.push({ url: this.url, name: file.name, alt: form.get('alt') as string | null });
    const { status, body } = answer(file.name);
    setTimeout(() => {
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.onload?.();
    }, 0);
  }
}

const media = (id: string, mimeType: string) => ({ id, mimeType, alt: null, url: `/media/${id}` });
const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

beforeEach(() => {
  sent = [];
  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = FakeRequest;
});
afterEach(() => {
  delete (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
});

describe('uploadPastedImages', () => {
  it('uploads images one at a time in order, and says how each went in the words of the media library', async () => {
    answer = (name) =>
      name === 'big.png'
        ? {
            status: 413,
            body: {
              code: 'PAYLOAD_TOO_LARGE',
              message: 'x',
              details: { reason: 'too_large', maxBytes: 10 * 1024 * 1024 },
            },
          }
        : name === 'fake.png'
          ? { status: 201, body: media('m3', 'application/pdf') }
          : { status: 201, body: media(name === 'a.png' ? 'm1' : 'm2', 'image/png') };
    const seen: Array<[PastedUpload, number]> = [];
    const results = await uploadPastedImages(
      'w1',
      [
        png('a.png'),
        new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }),
        { file: png('b.png'), alt: 'A loaf' },
        png('big.png'),
        png('fake.png'),
      ],
      (result, index) => seen.push([result, index]),
    );
    expect(results).toStrictEqual([
      { mediaId: 'm1', alt: '', url: '/media/m1' },
      { error: NOT_AN_IMAGE },
      { mediaId: 'm2', alt: 'A loaf', url: '/media/m2' },
      { error: 'The file is too big. Files can be up to 10 MB.' },
      { error: NOT_AN_IMAGE },
    ]);
    expect(seen).toStrictEqual(results.map((result, index) => [result, index]));
    // The PDF was never sent; the alt text went with its image.
    expect(sent).toStrictEqual([
      { url: '/api/v1/dashboard/workspaces/w1/media', name: 'a.png', alt: null },
      { url: '/api/v1/dashboard/workspaces/w1/media', name: 'b.png', alt: 'A loaf' },
      { url: '/api/v1/dashboard/workspaces/w1/media', name: 'big.png', alt: null },
      { url: '/api/v1/dashboard/workspaces/w1/media', name: 'fake.png', alt: null },
    ]);
  });

  it('settles the files not yet sent as cancelled once its signal aborts', async () => {
    answer = () => ({ status: 201, body: media('m1', 'image/png') });
    const controller = new AbortController();
    const results = await uploadPastedImages(
      'w1',
      [png('a.png'), png('b.png')],
      () => controller.abort(),
      controller.signal,
    );
    expect(results).toStrictEqual([
      { mediaId: 'm1', alt: '', url: '/media/m1' },
      { error: 'The upload was cancelled.' },
    ]);
    expect(sent.map((request) => request.name)).toStrictEqual(['a.png']);
  });
});
