import { Field, SelectField } from '../../components/Field';
import type { Member } from '../../types';
import { CATEGORY_LABELS } from './describe';
import { isFiltered, rangeProblem, TIME_ZONE, type Filters } from './filters';

interface Props {
  filters: Filters;
  /** Null until the members have loaded (or when they could not be): the person filter offers only "Anyone". */
  members: Member[] | null;
  onChange(changes: Partial<Filters>): void;
}

/** What to show: a category, a person, and a range of whole days; each change applies at once. */
export function AuditFilters({ filters, members, onChange }: Props) {
  const people = (members ?? []).map((member) => ({ value: member.userId, label: member.email }));
  // A person chosen before they left the workspace is still a filter; say so rather than show "Anyone".
  if (filters.actor && members && !people.some((person) => person.value === filters.actor))
    people.push({ value: filters.actor, label: 'Someone no longer a member' });

  return (
    <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
      <div className="filter-grid">
        <SelectField
          label="Category"
          value={filters.category}
          onChange={(e) => onChange({ category: e.target.value })}
          options={[
            { value: '', label: 'Everything' },
            ...Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
        <SelectField
          label="Person"
          value={filters.actor}
          onChange={(e) => onChange({ actor: e.target.value })}
          options={[{ value: '', label: 'Anyone' }, ...people]}
        />
        <Field label="From" type="date" value={filters.from} onChange={(e) => onChange({ from: e.target.value })} />
        <Field
          label="To"
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          error={rangeProblem(filters) ?? undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
      </div>
      <div className="audit-filters-foot">
        <p className="hint">From and To are whole days in your time zone ({TIME_ZONE}), both included.</p>
        {isFiltered(filters) && (
          <button
            type="button"
            className="button-small"
            onClick={() => onChange({ category: '', actor: '', from: '', to: '' })}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
