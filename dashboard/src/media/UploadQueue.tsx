import { useState, type DragEvent } from 'react';
import type { Media } from '../types';
import { uploadErrorWords, uploadMedia } from './upload';

interface Upload {
  key: number;
  name: string;
  progress: number;
  error: string | null;
  done: boolean;
}

let nextKey = 0;

/**
 * Several files at once, by drag and drop or the file picker: each gets its own progress bar and, when the
 * server refuses it, its own reason. `onUploaded` is called for each file kept.
 */
export function UploadQueue({ workspaceId, onUploaded }: { workspaceId: string; onUploaded(media: Media): void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const update = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const start = (files: FileList | null) => {
    if (!files) return;
    const added = Array.from(files).map((file) => ({ file, key: nextKey++ }));
    setUploads((list) => [
      ...list.filter((item) => !item.done),
      ...added.map(({ file, key }) => ({ key, name: file.name, progress: 0, error: null, done: false })),
    ]);
    for (const { file, key } of added) {
      uploadMedia(workspaceId, file, { onProgress: (progress) => update(key, { progress }) }).then(
        (media) => {
          update(key, { progress: 1, done: true });
          onUploaded(media);
        },
        (error: unknown) => update(key, { error: uploadErrorWords(error) }),
      );
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    start(event.dataTransfer.files);
  };

  return (
    <section className="upload-queue" aria-label="Upload">
      <div
        className={`drop-zone${over ? ' drop-zone-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop images here, or</p>
        <label className="file-button">
          Choose files
          <input
            type="file"
            multiple
            className="visually-hidden"
            onChange={(event) => {
              start(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
      </div>
      {uploads.length > 0 && (
        <ul className="upload-list">
          {uploads.map((item) => (
            <li key={item.key} className={item.error ? 'upload-failed' : undefined}>
              <span className="upload-name">{item.name}</span>
              <progress max={1} value={item.progress} aria-label={`Uploading ${item.name}`}>
                {Math.round(item.progress * 100)}%
              </progress>
              <span className="upload-state" role={item.error ? 'alert' : undefined}>
                {item.error ?? (item.done ? 'Uploaded' : `${Math.round(item.progress * 100)}%`)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
