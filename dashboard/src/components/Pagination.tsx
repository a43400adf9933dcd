interface PaginationProps {
  page: number;
  totalPages: number;
  total: number;
  label: string;
  onPage(page: number): void;
}

export function Pagination({ page, totalPages, total, label, onPage }: PaginationProps) {
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {totalPages} · {total} {total === 1 ? 'item' : 'items'}
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
