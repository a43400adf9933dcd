import type { APIRoute } from 'astro';
import { keptFile } from '../lib/files';

export const GET: APIRoute = () => keptFile('/feed.json');
