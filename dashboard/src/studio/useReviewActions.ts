import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { keys } from '../queries';
import { useReview } from './useReview';
import type { Kind, useStudio } from './useStudio';

/**
 * The studio's side of review: the submission's dialog, approving, and the words of what was done. Both submitting
 * and approving save the editor's unsaved edits first, so what is reviewed, or published, is what is on screen.
 */
export function useReviewActions(workspaceId: string, kind: Kind, studio: ReturnType<typeof useStudio>) {
  const { base, save } = studio;
  const noun = kind;
  const queryClient = useQueryClient();
  const review = useReview(workspaceId, kind, base?.id ?? null);
  // The submission's dialog while open: whether it is under way, and why the last try failed.
  const [submitting, setSubmitting] = useState<{ pending: boolean; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  // A decision taken elsewhere (approved and published from another browser) shows as the copy it made, unless
  // the writer has edits the server does not have yet.
  const reviewedStatus = review.review?.resource.id === base?.id ? review.review?.resource.status : undefined;
  useEffect(() => {
    if (!base || reviewedStatus === undefined || reviewedStatus === base.status) return;
    if (save.kind === 'idle' || save.kind === 'saved') void studio.reloadFromServer();
  }, [reviewedStatus]);

  const openSubmit = () => {
    review.clearError();
    setDone(null);
    setSubmitting({ pending: false, error: null });
  };

  const submit = async (note: string) => {
    setSubmitting({ pending: true, error: null });
    const saved = await studio.saveNow();
    if (!saved) {
      setSubmitting({ pending: false, error: `Not submitted: the ${noun} could not be saved. The bar says why.` });
      return;
    }
    if (await review.act({ act: 'submit', comment: note }, saved.id)) {
      setSubmitting(null);
      setDone('Submitted for review. The editors are told.');
    } else setSubmitting({ pending: false, error: null });
  };

  const approve = async (publish: boolean, comment: string): Promise<boolean> => {
    const saved = await studio.saveNow();
    if (!saved) {
      review.fail(`Not approved: the ${noun} could not be saved first. The bar says why.`);
      return false;
    }
    const answer = await review.act({ act: 'approve', publish, comment }, saved.id);
    if (!answer) return false;
    if (answer.resource.status !== saved.status) {
      await studio.reloadFromServer();
      void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, `${kind}s`) });
    }
    setDone(
      answer.resource.status === 'published'
        ? 'Approved and published. The writer is told.'
        : 'Approved. It stays a draft until someone publishes it; the writer is told.',
    );
    return true;
  };

  return {
    review,
    submitting,
    closeSubmit: () => setSubmitting(null),
    done,
    setDone,
    openSubmit,
    submit,
    approve,
  };
}
