import { parseRoomEvent } from './room-events';

describe('parseRoomEvent', () => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('takes the trace context off the end of the data, leaving the JSON the browser gets', () => {
    const data = { userId: 'u1', users: [{ userId: 'u1' }], sentAt: 1 };
    const message = `room\n1-0\nUSER_JOINED\n${JSON.stringify({ ...data, traceparent })}`;
    const parsed = parseRoomEvent(message)!;
    expect(parsed).toMatchObject({ roomId: 'room', id: '1-0', event: 'USER_JOINED', traceparent });
    expect(JSON.parse(parsed.data)).toEqual(data);
  });

  it('leaves data without one as it is', () => {
    const data = JSON.stringify({ note: 'ends in "}"', sentAt: 1 });
    const parsed = parseRoomEvent(`room\n1-0\nUSER_LEFT\n${data}`)!;
    expect(parsed.data).toBe(data);
    expect(parsed.traceparent).toBeUndefined();
  });
});
