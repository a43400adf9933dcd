import { Fragment } from 'react';

/**
 * An email address that may wrap before its `@` and its dots, where typographers break addresses, so that a
 * narrow column never has to split it inside a word.
 */
export function Email({ address }: { address: string }) {
  const parts = address.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
