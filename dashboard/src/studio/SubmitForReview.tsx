import { useId, useState, type FormEvent } from 'react';
import { DialogActions, Dialog } from '../components/Dialog';
import { commentProblem, refusalWords } from '../screens/reviews/review-api';
import { COMMENT_MAX_LENGTH } from '../../../src/modules/reviews/review-rules.js';

interface Props {
  noun: string;
  title: string;
  /** Submitted before: after changes were asked for, an approval or a withdrawal. */
  again: boolean;
  pending: boolean;
  /** Why the last try failed: the save's words, or the server's refusal. */
  error: unknown;
  onSubmit(note: string): void;
  onCancel(): void;
}

/** Asks for the optional note that goes first in the thread, then saves the draft and submits it. */
export function SubmitForReview({ noun, title, again, pending, error, onSubmit, onCancel }: Props) {
  const [note, setNote] = useState('');
  const noteId = useId();
  const hintId = useId();
  const problemId = useId();
  const problem = commentProblem(error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(note);
  };
  return (
    <Dialog
      title={again ? 'Submit for review again' : 'Submit for review'}
      onClose={onCancel}
      description={
        <p>
          An editor reads “{title || `this ${noun}`}”, then publishes it or asks for changes. You are told either way,
          under the bell. Unsaved edits are saved first.
        </p>
      }
    >
      <form className="stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={noteId}>Note for the reviewer (optional)</label>
          <textarea
            id={noteId}
            rows={4}
            value={note}
            maxLength={COMMENT_MAX_LENGTH}
            data-autofocus
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem !== null ? `${hintId} ${problemId}` : hintId}
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={hintId} className="hint">
            {again ? 'What you changed since, for instance.' : 'What to look at, or what you are unsure of.'}
          </p>
          {problem !== null && (
            <p id={problemId} className="field-error">
              {problem}
            </p>
          )}
        </div>
        {error !== null && problem === null && (
          <p className="field-error" role="alert">
            {typeof error === 'string' ? error : refusalWords(error, noun)}
          </p>
        )}
        <DialogActions onCancel={onCancel} pending={pending} label="Submit" pendingLabel="Submitting…" />
      </form>
    </Dialog>
  );
}
