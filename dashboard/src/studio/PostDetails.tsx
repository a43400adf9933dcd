import { useState } from 'react';
import { describeError, call, client } from '../api';
import { keys, useApi } from '../queries';
import { MediaPicker } from '../media/MediaPicker';
import type { Category, Media, Post, Tag } from '../types';
import { fieldsFor, type EditableFields, type StudioField } from './post-fields';
import { tooLong } from '../validation-words';
import { Labelled, PlainField } from './TextFields';

interface Props {
  workspaceId: string;
  postId: string | null;
  post: Post | null;
  fields: EditableFields;
  issues: Record<string, string>;
  onChange(changes: Partial<EditableFields>): void;
}

/** Categories in tree order, each with its depth, from parentId (a missing parent puts it at the root). */
function treeOrder(categories: Category[]): Array<{ category: Category; depth: number }> {
  const children = new Map<string | null, Category[]>();
  const ids = new Set(categories.map((c) => c.id));
  for (const c of categories) {
    const parent = c.parentId && ids.has(c.parentId) ? c.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const out: Array<{ category: Category; depth: number }> = [];
  const walk = (parent: string | null, depth: number) => {
    for (const c of children.get(parent) ?? []) {
      out.push({ category: c, depth });
      if (depth < 20) walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Featured image, author, category, tags and related posts: the post's relations, chosen, not typed as ids. */
export function PostDetails({ workspaceId, postId, post, fields, issues, onChange }: Props) {
  const authors = useApi(keys.list(workspaceId, 'authors', { pageSize: 100 }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/authors', { params: { path: { workspaceId }, query: { pageSize: 100 } } }),
    ),
  );
  const categories = useApi(keys.list(workspaceId, 'categories', { pageSize: 100, orderBy: 'sortOrder' }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/categories', {
        params: { path: { workspaceId }, query: { pageSize: 100, orderBy: 'sortOrder', order: 'asc' } },
      }),
    ),
  );
  const [picking, setPicking] = useState(false);
  const [featured, setFeatured] = useState<Media | null>(null);
  const featuredUrl =
    featured?.id === fields.featuredMediaId
      ? featured.url
      : post?.featuredMediaId === fields.featuredMediaId
        ? post?.featuredMedia?.url
        : undefined;

  const edit = (field: StudioField) => {
    switch (field.kind) {
      case 'media':
        return (
          <div className="field" key={field.name}>
            <p className="field-label">{field.label}</p>
            {fields.featuredMediaId && featuredUrl && <img className="image-pick-preview" src={featuredUrl} alt="" />}
            <div className="actions">
              <button type="button" onClick={() => setPicking(true)}>
                {fields.featuredMediaId ? 'Change featured image' : 'Choose featured image'}
              </button>
              {fields.featuredMediaId && (
                <button type="button" className="button-quiet" onClick={() => onChange({ featuredMediaId: null })}>
                  Remove featured image
                </button>
              )}
            </div>
            {issues['/featuredMediaId'] && <p className="field-error">{issues['/featuredMediaId']}</p>}
            <MediaPicker
              workspaceId={workspaceId}
              open={picking}
              onClose={() => setPicking(false)}
              onPick={(media) => {
                setPicking(false);
                setFeatured(media);
                onChange({ featuredMediaId: media.id });
              }}
            />
          </div>
        );
      case 'author':
        return (
          <Labelled key={field.name} label={field.label} error={issues['/authorId']}>
            {({ id, describedBy }) => (
              <select
                id={id}
                aria-describedby={describedBy}
                value={fields.authorId ?? ''}
                onChange={(e) => onChange({ authorId: e.target.value || null })}
              >
                <option value="">No author</option>
                {(authors.data?.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.displayName}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        );
      case 'category':
        return (
          <Labelled key={field.name} label={field.label} error={issues['/categoryId']}>
            {({ id, describedBy }) => (
              <select
                id={id}
                aria-describedby={describedBy}
                value={fields.categoryId ?? ''}
                onChange={(e) => onChange({ categoryId: e.target.value || null })}
              >
                <option value="">Uncategorised</option>
                {treeOrder(categories.data?.data ?? []).map(({ category, depth }) => (
                  <option key={category.id} value={category.id}>
                    {`${'\u00a0\u00a0'.repeat(depth)}${depth > 0 ? '└ ' : ''}${category.name}`}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        );
      case 'tags':
        return (
          <TagPicker
            key={field.name}
            workspaceId={workspaceId}
            selected={fields.tagIds}
            initial={post?.tags ?? []}
            onChange={(tagIds) => onChange({ tagIds })}
          />
        );
      case 'related':
        return (
          <RelatedPicker
            key={field.name}
            workspaceId={workspaceId}
            postId={postId}
            selected={fields.relatedPostIds}
            initial={post?.relatedPosts ?? []}
            error={issues['/relatedPostIds']}
            onChange={(relatedPostIds) => onChange({ relatedPostIds })}
          />
        );
      case 'text': {
        const values = fields as unknown as Record<string, string>;
        const length = values[field.name]!.length;
        const over = field.maxLength !== undefined && length > field.maxLength;
        return (
          <PlainField
            key={field.name}
            label={field.label}
            value={values[field.name]!}
            hint={field.help}
            error={issues[`/${field.name}`] ?? (over ? tooLong(field.maxLength!) : undefined)}
            onChange={(value) => onChange({ [field.name]: value } as Partial<EditableFields>)}
          />
        );
      }
      default:
        return null;
    }
  };

  return (
    <section className="panel" aria-labelledby="panel-details">
      <h2 id="panel-details">Details</h2>
      {fieldsFor('post')
        .filter((field) => field.place === 'details')
        .map(edit)}
    </section>
  );
}

function TagPicker({
  workspaceId,
  selected,
  initial,
  onChange,
}: {
  workspaceId: string;
  selected: string[];
  initial: Tag[];
  onChange(ids: string[]): void;
}) {
  const tags = useApi(keys.list(workspaceId, 'tags', { pageSize: 100 }), () =>
    call(client.GET('/workspaces/{workspaceId}/tags', { params: { path: { workspaceId }, query: { pageSize: 100 } } })),
  );
  const [created, setCreated] = useState<Tag[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const all = new Map<string, Tag>();
  for (const t of [...initial, ...(tags.data?.data ?? []), ...created]) all.set(t.id, t);
  const create = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    setError(null);
    const existing = [...all.values()].find((t) => t.name.toLowerCase() === wanted.toLowerCase());
    if (existing) {
      if (!selected.includes(existing.id)) onChange([...selected, existing.id]);
      setName('');
      return;
    }
    try {
      const tag = await call(
        client.POST('/workspaces/{workspaceId}/tags', { params: { path: { workspaceId } }, body: { name: wanted } }),
      );
      setCreated((c) => [...c, tag]);
      onChange([...selected, tag.id]);
      setName('');
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  return (
    <fieldset className="field tag-picker">
      <legend>Tags</legend>
      <ul className="check-list">
        {[...all.values()].map((tag) => (
          <li key={tag.id}>
            <label>
              <input
                type="checkbox"
                checked={selected.includes(tag.id)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...selected, tag.id] : selected.filter((id) => id !== tag.id))
                }
              />{' '}
              {tag.name}
            </label>
          </li>
        ))}
      </ul>
      <div className="field-row">
        <Labelled label="New tag" error={error ?? undefined}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void create(e);
              }}
            />
          )}
        </Labelled>
        <button type="button" onClick={(e) => void create(e)}>
          Add tag
        </button>
      </div>
    </fieldset>
  );
}

type Summary = { id: string; title: string; slug: string };

function RelatedPicker({
  workspaceId,
  postId,
  selected,
  initial,
  error,
  onChange,
}: {
  workspaceId: string;
  postId: string | null;
  selected: string[];
  initial: Summary[];
  error: string | undefined;
  onChange(ids: string[]): void;
}) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [known, setKnown] = useState<Map<string, Summary>>(() => new Map(initial.map((p) => [p.id, p])));
  const results = useApi(keys.list(workspaceId, 'posts', { q: query, pageSize: 10 }), () =>
    query
      ? call(
          client.GET('/workspaces/{workspaceId}/posts', {
            params: { path: { workspaceId }, query: { q: query, pageSize: 10 } },
          }),
        )
      : Promise.resolve(null),
  );
  const add = (post: Summary) => {
    setKnown((k) => new Map(k).set(post.id, post));
    onChange([...selected, post.id]);
  };
  const move = (index: number, by: number) => {
    const next = selected.slice();
    const [id] = next.splice(index, 1);
    next.splice(index + by, 0, id!);
    onChange(next);
  };
  return (
    <fieldset className="field related-picker">
      <legend>Related posts</legend>
      {selected.length > 0 && (
        <ol className="related-list">
          {selected.map((id, i) => {
            const title = known.get(id)?.title ?? id;
            return (
              <li key={id}>
                <span>{title}</span>
                <span className="related-buttons">
                  <button type="button" className="button-quiet" disabled={i === 0} onClick={() => move(i, -1)}>
                    Up<span className="visually-hidden">: {title}</span>
                  </button>
                  <button
                    type="button"
                    className="button-quiet"
                    disabled={i === selected.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    Down<span className="visually-hidden">: {title}</span>
                  </button>
                  <button
                    type="button"
                    className="button-quiet"
                    onClick={() => onChange(selected.filter((x) => x !== id))}
                  >
                    Remove<span className="visually-hidden">: {title}</span>
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {error && <p className="field-error">{error}</p>}
      <div className="field-row">
        <Labelled label="Find a post">
          {({ id }) => (
            <input
              id={id}
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  setQuery(q.trim());
                }
              }}
            />
          )}
        </Labelled>
        <button type="button" onClick={() => setQuery(q.trim())}>
          Search
        </button>
      </div>
      {results.data && (
        <ul className="related-results" aria-label="Posts found">
          {results.data.data
            .filter((p) => p.id !== postId && !selected.includes(p.id))
            .map((p) => (
              <li key={p.id}>
                <button type="button" className="button-quiet" onClick={() => add(p)}>
                  Add “{p.title}”
                </button>
              </li>
            ))}
          {results.data.data.length === 0 && <li className="hint">No posts match.</li>}
        </ul>
      )}
    </fieldset>
  );
}
