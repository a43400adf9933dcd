import { lazy, Suspense } from 'react';
import { call, client } from '../api';
import { keys, useApi } from '../queries';
import { Badge, ErrorMessage, Loading } from '../components/Status';
import { formatTime } from '../hooks';
import { Link } from '../router';
import type { WorkspaceSummary } from '../types';
import { can, canDraft } from '../session';
import { STATUS_TONE } from './PostsScreen';

// The body's renderer (and its Markdown parser) loads with the first post opened, not with the dashboard.
const BlockList = lazy(() => import('./Blocks').then((module) => ({ default: module.BlockList })));

export function PostScreen({ workspace, postId }: { workspace: WorkspaceSummary; postId: string }) {
  const post = useApi(keys.item(workspace.id, 'posts', postId), () =>
    call(
      client.GET('/workspaces/{workspaceId}/posts/{idOrSlug}', {
        params: { path: { workspaceId: workspace.id, idOrSlug: postId } },
      }),
    ),
  );
  const back = (
    <p className="breadcrumb">
      <Link to={`/w/${workspace.id}/posts`}>← All posts</Link>
    </p>
  );
  if (post.state === 'loading' && !post.data) {
    return (
      <>
        {back}
        <h1>Post</h1>
        <Loading label="Loading the post…" />
      </>
    );
  }
  if (!post.data) {
    return (
      <>
        {back}
        <h1>Post</h1>
        <ErrorMessage error={post.error} onRetry={post.reload} notFound="This post does not exist in this workspace." />
      </>
    );
  }
  const p = post.data;
  return (
    <>
      {back}
      <article className="post" aria-labelledby="post-title">
        <h1 id="post-title">{p.title || '(untitled)'}</h1>
        {(can(workspace, 'posts:write') || (p.status === 'draft' && canDraft(workspace, 'posts'))) && (
          <p>
            <Link to={`/w/${workspace.id}/posts/${p.id}/edit`} className="link-button">
              Edit post
            </Link>
          </p>
        )}
        <dl className="meta">
          <div>
            <dt>Status</dt>
            <dd>
              <Badge tone={STATUS_TONE[p.status] ?? 'neutral'}>{p.status}</Badge>
            </dd>
          </div>
          <div>
            <dt>Slug</dt>
            <dd className="mono">{p.slug}</dd>
          </div>
          <div>
            <dt>Author</dt>
            <dd>{p.author?.displayName ?? '—'}</dd>
          </div>
          <div>
            <dt>Category</dt>
            <dd>{p.category?.path ?? '—'}</dd>
          </div>
          <div>
            <dt>Tags</dt>
            <dd>{p.tags.length ? p.tags.map((t) => t.name).join(', ') : '—'}</dd>
          </div>
          <div>
            <dt>Published</dt>
            <dd>{formatTime(p.publishedAt)}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatTime(p.updatedAt)}</dd>
          </div>
          <div>
            <dt>Reading time</dt>
            <dd>{p.readingTimeMin} min</dd>
          </div>
          <div>
            <dt>SEO · readability</dt>
            <dd>
              {p.seoScore} · {p.readabilityScore}
            </dd>
          </div>
        </dl>
        {p.status === 'published' && p.publishedAt && Date.parse(p.publishedAt) > Date.now() && (
          <div className="notice notice-warn" role="note" aria-label="Dated in the future">
            <p>
              This post is dated {formatTime(p.publishedAt)}, yet it is live now: v1 has no scheduling, so a published
              post is public at once and sorts first among published posts. The API refuses such a date on new writes;
              set the date to now or earlier, or move the post back to draft.
            </p>
          </div>
        )}
        {p.excerpt && <p className="excerpt">{p.excerpt}</p>}
        {p.featuredMedia && (
          <figure className="block-image">
            <img src={p.featuredMedia.url} alt={p.featuredMedia.alt ?? ''} />
            <figcaption>Featured image</figcaption>
          </figure>
        )}
        {p.tocItems.length > 0 && (
          <nav className="toc" aria-label="Table of contents">
            <p className="toc-title">Contents</p>
            <ol>
              {p.tocItems.map((item) => (
                <li key={item.id} className={`toc-${item.level}`}>
                  <a href={`#heading-${item.id}`}>{item.text}</a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <section aria-label="Body">
          <Suspense fallback={<Loading label="Loading the body…" />}>
            <BlockList blocks={p.bodyJson} />
          </Suspense>
        </section>
      </article>
    </>
  );
}
