/*
 * What an embed block's URL points at, read with URL parsing (never by pattern on the whole string): the provider,
 * the id, and for videos the player's address to load when the reader asks for it (enhance.ts).
 */

export type VideoProvider = 'youtube' | 'vimeo';

export interface VideoEmbed {
  provider: VideoProvider;
  id: string;
  /** The player's address: YouTube's privacy-enhanced host, Vimeo's player with do-not-track. */
  embedUrl: string;
}

export interface PostEmbed {
  provider: 'x';
  /** The post's numeric id. */
  id: string;
}

function parse(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : null;
  } catch {
    return null;
  }
}

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^(www|m)\./, '');
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** `t=90`, `t=90s`, `t=1m30s`, `start=90` → seconds, or undefined. */
function startSeconds(url: URL): number | undefined {
  const value = url.searchParams.get('t') ?? url.searchParams.get('start');
  const match = value === null ? null : /^(?:(\d{1,5})h)?(?:(\d{1,5})m)?(?:(\d{1,6})s?)?$/.exec(value);
  if (!match || value === '') return undefined;
  const seconds = Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
  return seconds > 0 ? seconds : undefined;
}

function youtubeId(url: URL): string | undefined {
  const host = hostOf(url);
  const parts = url.pathname.split('/').filter(Boolean);
  if (host === 'youtu.be') return parts[0];
  if (host !== 'youtube.com' && host !== 'youtube-nocookie.com' && host !== 'music.youtube.com') return undefined;
  if (parts[0] === 'watch') return url.searchParams.get('v') ?? undefined;
  if (['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')) return parts[1];
  return undefined;
}

/** The video a video_embed block's URL names, when it is one of YouTube's or Vimeo's; else null. */
export function videoEmbedOf(raw: string): VideoEmbed | null {
  const url = parse(raw);
  if (!url) return null;
  const youtube = youtubeId(url);
  if (youtube !== undefined && YOUTUBE_ID.test(youtube)) {
    const start = startSeconds(url);
    return {
      provider: 'youtube',
      id: youtube,
      embedUrl: `https://www.youtube-nocookie.com/embed/${youtube}${start ? `?start=${start}` : ''}`,
    };
  }
  const host = hostOf(url);
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  let hash: string | undefined;
  if (host === 'player.vimeo.com' && parts[0] === 'video') {
    id = parts[1];
    hash = url.searchParams.get('h') ?? undefined;
  } else if (host === 'vimeo.com') {
    // vimeo.com/ID, vimeo.com/ID/HASH (unlisted), vimeo.com/channels/NAME/ID, vimeo.com/groups/NAME/videos/ID.
    const at = parts.findIndex((part) => /^\d+$/.test(part));
    id = at >= 0 ? parts[at] : undefined;
    hash = at >= 0 ? parts[at + 1] : undefined;
  }
  if (id === undefined || !/^\d{1,20}$/.test(id)) return null;
  const query = new URLSearchParams();
  if (hash !== undefined && /^[0-9a-f]{1,40}$/i.test(hash)) query.set('h', hash);
  query.set('dnt', '1');
  return { provider: 'vimeo', id, embedUrl: `https://player.vimeo.com/video/${id}?${query.toString()}` };
}

/** The post a tweet_embed block's URL names (x.com or twitter.com, `/NAME/status/ID`); else null. */
export function postEmbedOf(raw: string): PostEmbed | null {
  const url = parse(raw);
  if (!url) return null;
  const host = hostOf(url).replace(/^mobile\./, '');
  if (host !== 'x.com' && host !== 'twitter.com') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  const at = parts.findIndex((part) => part === 'status' || part === 'statuses');
  const id = at >= 1 ? parts[at + 1] : undefined;
  return id !== undefined && /^\d{1,20}$/.test(id) ? { provider: 'x', id } : null;
}
