/**
 * One typed function per API call (SPEC §7). Pages call these (or the SWR hooks below), never fetch.
 */
import {
  SESSION_OPTIONAL_HEADER,
  type AccessTokenPayload,
  type CheckoutAnswer,
  type CreateRoomAnswer,
  type DecisionRule,
  type DecisionRuleAnswer,
  type DrawnPick,
  type HoldoutAnswer,
  type HoldoutRound,
  type PlanView,
  type SharePlanAnswer,
  type FeedbackDto,
  type GeocodeAnswer,
  type JoinRoomAnswer,
  type LimitsAnswer,
  type PrivateLimits,
  type SavedGroup,
  type GroupsAnswer,
  type InvitationsAnswer,
  type LoginDto,
  type NextBatchAnswer,
  type NudgeAnswer,
  type PlacesAnswer,
  type PlaceTypesAnswer,
  type RegisterDto,
  type RoomSnapshot,
  type StripeInformation,
  type SubscribeDto,
  type UpdateMeDto,
  type WireUser,
} from '@forkvote/contracts';
import useSWR from 'swr';
import type { Ballot } from '../room/ballot-store';
import { ApiError, apiCommand, apiFetch, apiOnce, BALLOT_TIMEOUT_MS } from './http';

const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

export interface PublicConfig {
  recaptchaSiteKey: string;
  environment: string;
}

export const api = {
  /** Signed out is an answer here, not a 401: an anonymous page load logs no failed call. */
  verifyToken: () =>
    apiFetch<AccessTokenPayload>(
      '/api/v1/auth/verify-token',
      json('POST', undefined, { [SESSION_OPTIONAL_HEADER]: '1' }),
    ),
  login: (body: LoginDto) => apiFetch<AccessTokenPayload>('/api/v1/auth/login', json('POST', body)),
  register: (body: RegisterDto) => apiFetch<CheckoutAnswer>('/api/v1/auth/register', json('POST', body)),
  subscribe: (plan: SubscribeDto['plan']) =>
    apiFetch<CheckoutAnswer>('/api/v1/auth/subscribe', json('POST', { plan } satisfies SubscribeDto)),
  logout: () => apiFetch<{ message: string }>('/api/v1/auth/logout', json('POST')),
  requestPasswordReset: (email: string) =>
    apiFetch<{ message: string }>('/api/v1/auth/reset-password', json('POST', { email })),
  resetPassword: (password: string, token: string) =>
    apiFetch<{ message: string }>('/api/v1/auth/reset-password-token', json('POST', { password, token })),
  updateMe: (body: UpdateMeDto) => apiFetch<WireUser>('/api/v1/me', json('PATCH', body)),
  feedback: (body: FeedbackDto) => apiFetch<{ message: string }>('/api/v1/feedback', json('POST', body)),
  geocode: (zip: string) => apiFetch<GeocodeAnswer>(`/api/v1/places/geocode?zip=${encodeURIComponent(zip)}`),

  createRoom: (userId: string, userName: string) =>
    apiCommand<CreateRoomAnswer>('/api/v1/waiting-room/create', json('POST', { userId, userName })),
  joinRoom: (waitingRoomId: string, userName: string, userId: string) =>
    apiCommand<JoinRoomAnswer>(
      '/api/v1/waiting-room/join',
      json('PATCH', { waitingRoomId, userName, userId }),
    ),
  leaveRoom: (waitingRoomId: string, userId: string) =>
    apiCommand<{ message: string }>('/api/v1/waiting-room/leave', json('PATCH', { waitingRoomId, userId })),
  startRoom: (token: string, body: object) =>
    apiCommand<PlacesAnswer>(
      '/api/v1/waiting-room/start',
      json('POST', body, { Authorization: `Bearer ${token}` }),
    ),
  /** One attempt: the page keeps the ballot and sends it again, under the same key, until it is answered. */
  vote: (waitingRoomId: string, userId: string, ballot: Ballot) =>
    apiOnce<{ voted: boolean; usersVoted: string[] }>(
      '/api/v1/waiting-room/vote',
      json('PATCH', { waitingRoomId, userId, votes: ballot.votes }),
      ballot.key,
      BALLOT_TIMEOUT_MS,
    ),
  nextBatch: (token: string, waitingRoomId: string, nextBatchIndex: number) =>
    apiCommand<NextBatchAnswer>(
      '/api/v1/waiting-room/next-batch',
      json('POST', { waitingRoomId, nextBatchIndex }, { Authorization: `Bearer ${token}` }),
    ),
  nudge: (token: string, waitingRoomId: string) =>
    apiFetch<NudgeAnswer>(
      '/api/v1/waiting-room/nudge',
      json('POST', { waitingRoomId }, { Authorization: `Bearer ${token}` }),
    ),
  currentRoom: () => apiFetch<RoomSnapshot>('/api/v1/waiting-room/current'),
  setRule: (token: string, waitingRoomId: string, decisionRule: DecisionRule) =>
    apiCommand<DecisionRuleAnswer>(
      '/api/v1/waiting-room/rule',
      json('PATCH', { waitingRoomId, decisionRule }, { Authorization: `Bearer ${token}` }),
    ),
  askHoldouts: (token: string, waitingRoomId: string) =>
    apiCommand<HoldoutRound>(
      '/api/v1/waiting-room/holdouts',
      json('POST', { waitingRoomId }, { Authorization: `Bearer ${token}` }),
    ),
  answerHoldout: (waitingRoomId: string, userId: string, placeId: string, answer: 'yes' | 'no') =>
    apiCommand<HoldoutAnswer>(
      '/api/v1/waiting-room/holdouts/answer',
      json('PATCH', { waitingRoomId, userId, placeId, answer }),
    ),
  drawPick: (token: string, waitingRoomId: string) =>
    apiCommand<DrawnPick>(
      '/api/v1/waiting-room/pick',
      json('POST', { waitingRoomId }, { Authorization: `Bearer ${token}` }),
    ),
  sharePlan: (waitingRoomId: string, placeId: string) =>
    apiFetch<SharePlanAnswer>('/api/v1/waiting-room/plan', json('POST', { waitingRoomId, placeId })),
  pushSubscribe: (
    waitingRoomId: string,
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  ) =>
    apiFetch<{ subscribed: true }>(
      '/api/v1/waiting-room/push',
      json('POST', { waitingRoomId, ...subscription }),
    ),
  limits: (waitingRoomId: string) =>
    apiFetch<LimitsAnswer>(`/api/v1/waiting-room/limits?waitingRoomId=${encodeURIComponent(waitingRoomId)}`),
  setLimits: (waitingRoomId: string, limits: Partial<PrivateLimits>) =>
    apiFetch<LimitsAnswer>('/api/v1/waiting-room/limits', json('PUT', { waitingRoomId, ...limits })),
  saveGroup: (waitingRoomId: string, name: string) =>
    apiFetch<SavedGroup>('/api/v1/groups', json('POST', { waitingRoomId, name })),
  startGroup: (groupId: string) =>
    apiCommand<CreateRoomAnswer>(`/api/v1/groups/${encodeURIComponent(groupId)}/start`, json('POST')),
  deleteGroup: (groupId: string) =>
    apiFetch<{ message: string }>(`/api/v1/groups/${encodeURIComponent(groupId)}`, json('DELETE')),
  removeGroupMember: (groupId: string, memberId: number) =>
    apiFetch<SavedGroup | { left: true }>(
      `/api/v1/groups/${encodeURIComponent(groupId)}/members/${memberId}`,
      json('DELETE'),
    ),
  dismissInvitation: (waitingRoomId: string) =>
    apiFetch<{ message: string }>(
      `/api/v1/me/invitations/${encodeURIComponent(waitingRoomId)}`,
      json('DELETE'),
    ),
  plan: (token: string) => apiFetch<PlanView>(`/api/v1/plans/${encodeURIComponent(token)}`),
  /** Discovery: a page of nearby places (the query as GET /api/v1/places/nearby takes it). */
  nearby: (query: URLSearchParams) => apiFetch<PlacesAnswer>(`/api/v1/places/nearby?${query}`),
};

/** The server's message for a failed call, or `fallback` (SPEC §8). */
export function errorMessage(err: unknown, fallback: string, field: 'message' | 'error' = 'message'): string {
  if (err instanceof ApiError) {
    const body = err.body as { message?: string; error?: string } | undefined;
    return body?.[field] ?? body?.message ?? fallback;
  }
  return 'An unexpected error occurred';
}

export const usePublicConfig = () => useSWR<PublicConfig>('/api/v1/config');
export const useMe = (enabled = true) => useSWR<WireUser>(enabled ? '/api/v1/me' : null);
export const useGroups = (enabled = true) => useSWR<GroupsAnswer>(enabled ? '/api/v1/groups' : null);
export const useInvitations = (enabled = true) =>
  useSWR<InvitationsAnswer>(enabled ? '/api/v1/me/invitations' : null);
export const useStripeInformation = (enabled = true) =>
  useSWR<StripeInformation>(enabled ? '/api/v1/me/stripe' : null);
export const usePlaceTypes = () =>
  useSWR<PlaceTypesAnswer>('/api/v1/places/types', {
    revalidateIfStale: false,
  });
