/**
 * Saved groups in the web app (docs/groups.md): "Save this group" on the results, "Start with this group"
 * on the create page and the profile, and the invitee's card on the home page. Plain markup, as the room
 * pages are.
 */
import { TeamOutlined } from '@ant-design/icons';
import {
  DECISION_RULE_LABELS,
  GROUP_MESSAGES,
  GROUP_NAME_MAX,
  invitationText,
  ALL_RESTAURANTS,
  defaultTypeFilter,
  METERS_PER_MILE,
  RADIUS_LIMITS,
  USER_NAME_MAX,
  type GroupSearch,
  type SavedGroup,
} from '@forkvote/contracts';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, errorMessage, useGroups, useInvitations } from '../api/endpoints';
import { useAuth } from '../auth/auth-context';
import { PlainAlert } from '../components/plain-alert';
import { PlainButton } from '../components/plain-button';
import { handOffSearchSettings, type SearchSettingsValue } from '../components/search-settings';
import { useRoom } from './room-context';

/** The host, after a session: keep its people under a name. */
export function SaveGroupForm() {
  const { state } = useRoom();
  const code = state.room.waitingRoom?.waitingRoomId;
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const id = useId();
  if (!code || !state.room.isHost) return null;

  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setStatus({ ok: false, message: GROUP_MESSAGES.nameRequired });
    setBusy(true);
    try {
      const group = await api.saveGroup(code, trimmed);
      setSaved(true);
      setStatus({ ok: true, message: `Saved “${group.name}”. ${GROUP_MESSAGES.savedHint}` });
    } catch (err) {
      setStatus({ ok: false, message: errorMessage(err, 'The group could not be saved. Try again.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="fv-light-card fv-light-card-body fv-stack fv-save-group"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="fv-decision-title">
        <TeamOutlined /> Save this group
      </h2>
      {!saved && (
        <form
          className="fv-save-group-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={`${id}-name`} className="fv-muted">
            Keep everyone here to start with them again next time.
          </label>
          <div className="fv-save-group-row">
            <input
              id={`${id}-name`}
              className="fv-input"
              placeholder="Friday lunch"
              maxLength={GROUP_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <PlainButton htmlType="submit" type="primary" loading={busy}>
              Save group
            </PlainButton>
          </div>
        </form>
      )}
      {status &&
        (status.ok ? (
          <span role="status">{status.message}</span>
        ) : (
          <PlainAlert type="error" message={status.message} role="alert" />
        ))}
    </section>
  );
}

function settingsOf(name: string, search: GroupSearch): SearchSettingsValue {
  return {
    mode: 'browser',
    zip: '',
    coords: { latitude: search.latitude, longitude: search.longitude },
    locationLabel: `Searching where ${name} searched last time.`,
    unit: 'miles',
    radius: Math.min(
      RADIUS_LIMITS.miles.max,
      Math.max(RADIUS_LIMITS.miles.min, Math.round(search.radiusInMeters / METERS_PER_MILE)),
    ),
    sort: search.rankPreference ?? 'popularity',
    filter: defaultTypeFilter({
      restaurantTypesToInclude: (search.includedTypes ?? []).filter((t) => t !== ALL_RESTAURANTS),
      restaurantTypesToExclude: search.excludedTypes ?? [],
    }),
    openNow: search.openNow ?? false,
    priceLevels: search.priceLevels ?? [],
  };
}

/** The owner's groups, each with "Start with this group" (the create page and the profile). */
export function StartWithGroupList({ manage = false }: { manage?: boolean }) {
  const auth = useAuth();
  const { data, error, mutate, isLoading } = useGroups(auth.isSignedIn);
  const { startGroup, state } = useRoom();
  const navigate = useNavigate();
  const [startingId, setStartingId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const groups = (data?.groups ?? []).filter((g) => manage || g.isOwner);
  // Under the profile's page title, or under "Or start with a saved group".
  const GroupName = manage ? 'h2' : 'h3';
  if (!auth.isSignedIn || (!manage && groups.length === 0)) return null;

  const start = async (group: SavedGroup) => {
    setStartingId(group.groupId);
    // The waiting room's search settings start where the group searched last time.
    if (group.search) handOffSearchSettings(settingsOf(group.name, group.search));
    if (await startGroup(group.groupId)) navigate('/waiting-room');
    setStartingId(null);
  };
  const act = async (action: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await action();
      await mutate();
    } catch (err) {
      setProblem(errorMessage(err, 'That did not work. Try again.'));
    }
  };

  return (
    <section className="fv-groups" aria-label="Saved groups">
      {!manage && <h2 className="fv-section-title fv-groups-title">Or start with a saved group</h2>}
      {manage && isLoading && <p className="fv-muted">Loading your groups…</p>}
      {manage && error && <PlainAlert type="error" message="Your groups could not be loaded." />}
      {manage && data && groups.length === 0 && (
        <p className="fv-muted" data-testid="no-groups">
          No saved groups yet. After a session you host, choose “Save this group” on the results.
        </p>
      )}
      <ul className="fv-group-list">
        {groups.map((group) => (
          <li
            key={group.groupId}
            className="fv-light-card fv-light-card-body fv-stack fv-group"
            data-testid="saved-group"
          >
            <div className="fv-group-head">
              <GroupName className="fv-group-name">{group.name}</GroupName>
              <span className="fv-tag fv-tag-brand">{DECISION_RULE_LABELS[group.decisionRule]}</span>
            </div>
            {!group.isOwner && <span className="fv-muted">Saved by {group.ownerName}</span>}
            <ul className="fv-group-members" aria-label={`People in ${group.name}`}>
              {group.members.map((m) => (
                <li key={m.memberId} className="fv-group-member">
                  <span>{m.userName}</span>
                  {m.isOwner && <span className="fv-tag fv-tag-host">Host</span>}
                  {!m.registered && <span className="fv-tag">Guest</span>}
                  {manage && group.isOwner && !m.isOwner && (
                    <button
                      type="button"
                      className="fv-chip-remove"
                      aria-label={`Remove ${m.userName} from ${group.name}`}
                      onClick={() => void act(() => api.removeGroupMember(group.groupId, m.memberId))}
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <div className="fv-actions fv-group-actions">
              {group.isOwner && auth.canCreate && (
                <PlainButton
                  type="primary"
                  loading={startingId === group.groupId && state.room.isLoading}
                  disabled={startingId !== null}
                  onClick={() => void start(group)}
                >
                  Start with this group
                </PlainButton>
              )}
              {manage && group.isOwner && deleting !== group.groupId && (
                <PlainButton type="danger" onClick={() => setDeleting(group.groupId)}>
                  Delete group
                </PlainButton>
              )}
              {manage && group.isOwner && deleting === group.groupId && (
                <span className="fv-confirm-inline" role="group" aria-label={`Delete ${group.name}?`}>
                  <span>Delete “{group.name}” for everyone in it?</span>
                  <PlainButton
                    type="danger"
                    onClick={() =>
                      void act(() => api.deleteGroup(group.groupId)).then(() => setDeleting(null))
                    }
                  >
                    Delete
                  </PlainButton>
                  <PlainButton onClick={() => setDeleting(null)}>Keep it</PlainButton>
                </span>
              )}
              {manage && !group.isOwner && (
                <PlainButton
                  type="danger"
                  onClick={() => {
                    const me = group.members.find((m) => m.isMe);
                    if (me) void act(() => api.removeGroupMember(group.groupId, me.memberId));
                  }}
                >
                  Leave group
                </PlainButton>
              )}
            </div>
          </li>
        ))}
      </ul>
      {(problem || (startingId === null && state.room.error && !manage)) && (
        <PlainAlert type="error" message={problem ?? state.room.error ?? ''} role="alert" />
      )}
    </section>
  );
}

/** The invitee's home page: "Hana invited you to Friday lunch", with Join. */
export function InvitationCards() {
  const auth = useAuth();
  const { data, mutate } = useInvitations(auth.isSignedIn);
  const { join } = useRoom();
  const navigate = useNavigate();
  const [joining, setJoining] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const invitations = data?.invitations ?? [];
  if (!auth.isSignedIn || invitations.length === 0) return null;

  return (
    <section className="fv-invitations" aria-label="Invitations">
      {invitations.map((invitation) => (
        <div
          key={invitation.waitingRoomId}
          className="fv-light-card fv-light-card-body fv-invitation"
          data-testid="invitation-card"
        >
          <TeamOutlined className="fv-invitation-icon" aria-hidden />
          <div className="fv-invitation-text">
            <strong>{invitationText(invitation.hostName, invitation.groupName)}</strong>
            <span className="fv-muted">Waiting room {invitation.waitingRoomId}</span>
          </div>
          <div className="fv-actions">
            <PlainButton
              type="primary"
              loading={joining === invitation.waitingRoomId}
              onClick={async () => {
                setJoining(invitation.waitingRoomId);
                setProblem(null);
                if (
                  await join(
                    invitation.waitingRoomId,
                    (auth.payload?.name ?? '').trim().slice(0, USER_NAME_MAX),
                  )
                )
                  navigate('/waiting-room');
                else setProblem(`Could not join ${invitation.groupName}. The room may have closed.`);
                setJoining(null);
                void mutate();
              }}
            >
              Join
            </PlainButton>
            <PlainButton
              onClick={async () => {
                await api.dismissInvitation(invitation.waitingRoomId).catch(() => undefined);
                void mutate();
              }}
            >
              Not this time
            </PlainButton>
          </div>
        </div>
      ))}
      {problem && <PlainAlert type="error" message={problem} role="alert" />}
    </section>
  );
}
