import { useId, useState } from 'react';
import { ROLE_NAMES, ROLES, roleOf, type RoleName } from '../../../../src/security/roles.js';
import { can } from '../../session';
import type { WorkspaceSummary } from '../../types';
import { ALL_PERMISSIONS, PermissionsGrid } from './PermissionsGrid';

export const ROLE_LABELS: Record<RoleName, string> = { contributor: 'Contributor', editor: 'Editor', admin: 'Admin' };

const DESCRIPTIONS: Record<RoleName | 'custom', string> = {
  contributor: 'Writes drafts and uploads media; cannot publish',
  editor: 'All content, publishing included',
  admin: 'Everything, members and settings included, except transferring the workspace',
  custom: 'The permissions ticked below, one by one',
};

/** What the members table says in its Role column: the preset a member's permissions match, or Custom. */
export function roleLabel(permissions: readonly string[], isOwner: boolean): string {
  if (isOwner) return 'Owner';
  const role = roleOf(permissions);
  return role ? ROLE_LABELS[role] : 'Custom';
}

/** The permissions the signed-in person may grant: all for the owner, else what they hold (the server's rule). */
export function grantableBy(workspace: WorkspaceSummary): ReadonlySet<string> | undefined {
  return workspace.isOwner ? undefined : new Set(ALL_PERMISSIONS.filter((p) => can(workspace, p)));
}

interface Props {
  workspace: WorkspaceSummary;
  value: string[];
  onChange(value: string[]): void;
  caption: string;
}

/** A role to start from (it fills the grid), and the grid to fine-tune it; a hand-made set reads as Custom. */
export function PermissionsEditor({ workspace, value, onChange, caption }: Props) {
  const name = useId();
  // Custom chosen while the grid still matches a preset: keep saying Custom until the grid changes.
  const [customChosen, setCustomChosen] = useState(false);
  const grantable = grantableBy(workspace);
  const selected: RoleName | 'custom' = customChosen ? 'custom' : (roleOf(value) ?? 'custom');
  const options: Array<RoleName | 'custom'> = [...ROLE_NAMES, 'custom'];
  const refused = (role: RoleName) => grantable !== undefined && ROLES[role].some((p) => !grantable.has(p));
  return (
    <>
      <fieldset className="role-choice">
        <legend>Role</legend>
        {options.map((option) => {
          const disabled = option !== 'custom' && refused(option);
          const label = option === 'custom' ? 'Custom' : ROLE_LABELS[option];
          return (
            <label key={option} className={disabled ? 'role-option role-option-disabled' : 'role-option'}>
              <input
                type="radio"
                name={name}
                value={option}
                checked={selected === option}
                disabled={disabled}
                aria-describedby={`${name}-${option}`}
                onChange={() => {
                  setCustomChosen(option === 'custom');
                  if (option !== 'custom') onChange([...ROLES[option]]);
                }}
              />
              <span className="role-name">{label}</span>
              <span className="role-description" id={`${name}-${option}`}>
                {DESCRIPTIONS[option]}
                {disabled && '. You cannot grant it.'}
              </span>
            </label>
          );
        })}
      </fieldset>
      <PermissionsGrid
        caption={caption}
        value={value}
        grantable={grantable}
        onChange={(next) => {
          setCustomChosen(false);
          onChange(next);
        }}
      />
    </>
  );
}
