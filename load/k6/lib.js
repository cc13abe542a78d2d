// Shared by the k6 scripts: log the host in and open rooms (the host must be a subscriber).
import http from 'k6/http';
import { fail } from 'k6';

export const json = { headers: { 'Content-Type': 'application/json' } };

/** Logs in with HOST_EMAIL / HOST_PASSWORD; answers the session cookie's value. */
export function login(baseUrl) {
  const jar = new http.CookieJar();
  const answer = http.post(
    `${baseUrl}/api/v1/auth/login`,
    JSON.stringify({ email: __ENV.HOST_EMAIL, password: __ENV.HOST_PASSWORD }),
    { ...json, jar },
  );
  if (answer.status !== 200) fail(`host login failed: ${answer.status} ${answer.body}`);
  const session = jar.cookiesForURL(baseUrl).fv_session;
  if (!session) fail('login set no session cookie');
  return session[0];
}

/** Opens a room as the host whose session cookie is given; answers the create call's body. */
export function openRoom(baseUrl, session) {
  const jar = new http.CookieJar();
  jar.set(baseUrl, 'fv_session', session);
  const created = http.post(
    `${baseUrl}/api/v1/waiting-room/create`,
    JSON.stringify({ userName: 'k6 host' }),
    {
      ...json,
      jar,
    },
  );
  if (created.status !== 200) fail(`create failed: ${created.status} ${created.body}`);
  return /** @type {any} */ (created.json());
}
