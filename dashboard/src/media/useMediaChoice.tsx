import { useState, type ReactElement } from 'react';
import { call, client } from '../api';
import { keys, useApi } from '../queries';
import type { Media } from '../types';
import { MediaPicker } from './MediaPicker';

export interface MediaChoice {
  /** The chosen image, once known: null while none is chosen, while it loads, or when it cannot be read. */
  media: Media | null;
  /** A chosen id that could not be read (deleted since, or never this workspace's). */
  failed: boolean;
  openPicker(): void;
  /** The library's picker, to be rendered by the field. */
  picker: ReactElement;
}

/**
 * A media id a form stores, as a field shows it: a saved id is looked up to show its image; one just picked is
 * shown as picked, without a request. Picking sets the id through `onChange`.
 */
export function useMediaChoice(
  workspaceId: string,
  value: string | undefined,
  onChange: (id: string) => void,
): MediaChoice {
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<Media | null>(null);
  const current = useApi(keys.item(workspaceId, 'media', value ?? '', picked?.id === value), () =>
    value && picked?.id !== value
      ? call(client.GET('/workspaces/{workspaceId}/media/{id}', { params: { path: { workspaceId, id: value } } }))
      : Promise.resolve(picked),
  );
  return {
    media: current.data && current.data.id === value ? current.data : null,
    failed: Boolean(value) && current.state === 'error',
    openPicker: () => setPicking(true),
    picker: (
      <MediaPicker
        workspaceId={workspaceId}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(media) => {
          setPicked(media);
          setPicking(false);
          onChange(media.id);
        }}
      />
    ),
  };
}
