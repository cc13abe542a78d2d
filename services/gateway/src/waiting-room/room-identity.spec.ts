import express from 'express';
import request from 'supertest';
import { GatewayConfig } from '../gateway.config';
import { setRoomCookie } from './room-identity';

/** The options Express got for the room cookie before the header was made by hand. */
const EXPRESS_OPTIONS = { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 24 * 3600 * 1000 } as const;

/** What each way answers for one token, at one moment (Date.now fixed), in one mode. */
async function setCookies(token: string, nodeEnv: string, now: number): Promise<string[][]> {
  const config = { NODE_ENV: nodeEnv } as GatewayConfig;
  const app = express();
  app.get('/express', (_req, res) => {
    res.cookie('fv_other', 'kept');
    res.cookie('fv_room', token, { ...EXPRESS_OPTIONS, secure: nodeEnv === 'production' });
    res.end();
  });
  app.get('/ours', (_req, res) => {
    res.cookie('fv_other', 'kept');
    setRoomCookie(res, config, token);
    res.end();
  });
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
  try {
    const answers = [await request(app).get('/express'), await request(app).get('/ours')];
    return answers.map((answer) => answer.headers['set-cookie'] as unknown as string[]);
  } finally {
    clock.mockRestore();
  }
}

describe('setRoomCookie', () => {
  const token =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOiJhYmMiLCJjb2RlIjoiQUJDREVGIn0.abc-DEF_123';

  it.each(['development', 'test', 'production'])('writes what res.cookie writes (%s)', async (nodeEnv) => {
    // Within one second and across the turn of one: the date is made once a second.
    for (const now of [Date.UTC(2026, 10, 24, 23, 59, 59, 1), Date.UTC(2026, 10, 24, 23, 59, 59, 999)]) {
      const [byExpress, ours] = await setCookies(token, nodeEnv, now);
      expect(ours).toEqual(byExpress);
    }
    const [byExpress, ours] = await setCookies(token, nodeEnv, Date.UTC(2026, 10, 25, 0, 0, 0, 0));
    expect(ours).toEqual(byExpress);
    expect(ours[1]).toBe(
      `fv_room=${token}; Max-Age=86400; Path=/; Expires=Thu, 26 Nov 2026 00:00:00 GMT; HttpOnly` +
        `${nodeEnv === 'production' ? '; Secure' : ''}; SameSite=Lax`,
    );
  });

  it('leaves a value that needs encoding to res.cookie', async () => {
    const [byExpress, ours] = await setCookies('not a token; x=1', 'production', Date.UTC(2026, 0, 1));
    expect(ours).toEqual(byExpress);
    expect(ours[1]).toMatch(/^fv_room=not%20a%20token%3B%20x%3D1; /);
  });
});
