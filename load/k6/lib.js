// Shared by the k6 scripts: log the host in and open a room (the host must be a subscriber).
import http from 'k6/http';
import { fail } from 'k6';

export const json = { headers: { 'Content-Type': 'application/json' } };

/** Logs in with HOST_EMAIL / HOST_PASSWORD and creates a room; answers the create call's body. */
export function hostRoom(baseUrl) {
  const login = http.post(
    `${baseUrl}/api/v1/auth/login`,
    JSON.stringify({ email: __ENV.HOST_EMAIL, password: __ENV.HOST_PASSWORD }),
    json,
  );
  if (login.status !== 200) fail(`host login failed: ${login.status} ${login.body}`);
  const created = http.post(
    `${baseUrl}/api/v1/waiting-room/create`,
    JSON.stringify({ userName: 'k6 host' }),
    json,
  );
  if (created.status !== 200) fail(`create failed: ${created.status} ${created.body}`);
  return /** @type {any} */ (created.json());
}
