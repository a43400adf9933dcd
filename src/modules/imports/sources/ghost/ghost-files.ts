import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * Where things are in an unpacked Ghost zip. Ghost(Pro)'s and the migration tools' zips differ in their folders
 * (the JSON at the root or a folder down, `content/` beside it), so both are looked for, shallowest first.
 */

const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

export async function isZipFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && ZIP_MAGIC.some((magic) => magic.equals(head));
  } finally {
    await handle.close();
  }
}

const isDirectory = (path: string) =>
  stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );

/** Folders under `root` breadth first, to `depth` levels, each level in name order; `content/` not entered. */
async function folders(root: string, depth: number): Promise<string[]> {
  const found = [root];
  let level = [root];
  for (let i = 0; i < depth; i += 1) {
    const next: string[] = [];
    for (const folder of level) {
      const entries = await readdir(folder, { withFileTypes: true });
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name)))
        if (entry.isDirectory() && entry.name !== 'content' && entry.name !== '__MACOSX')
          next.push(join(folder, entry.name));
    }
    found.push(...next);
    level = next;
  }
  return found;
}

/** The export's JSON in an unpacked zip and the folder holding its `content/`, or null when there is no JSON. */
export async function locateExport(root: string): Promise<{ json: string; contentRoot: string | null } | null> {
  let json: string | null = null;
  let contentRoot: string | null = null;
  for (const folder of await folders(root, 3)) {
    if (json === null) {
      const files = (await readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.json') && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
      // A redirects file beside the export is not the export.
      const name = files.find((file) => !/^redirects?\.json$/i.test(file));
      if (name !== undefined) json = join(folder, name);
    }
    if (contentRoot === null && (await isDirectory(join(folder, 'content', 'images')))) contentRoot = folder;
  }
  return json === null ? null : { json, contentRoot };
}
