import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { ROOM_MESSAGES, VoteCommand, VoteDto } from '@forkvote/contracts';
import { RpcValidationPipe } from './rpc-pipeline';

const pipe = new RpcValidationPipe();
const payload: ArgumentMetadata = { type: 'body', metatype: VoteCommand };

/** A ballot's command as the transport's server has it: JSON.parse of the envelope's text. */
const command = (body: object) =>
  JSON.parse(
    JSON.stringify({
      roomId: '0b6f2a3e-1c0d-4b7e-9a55-6f3d2b1a0c9e',
      userId: 'user-1',
      body: { waitingRoomId: ' abc123 ', userId: 'user-1', ...body },
    }),
  ) as object;

const votes = (count: number, voteType = 'up') =>
  Array.from({ length: count }, (_, i) => ({ placeId: `place-${i}`, voteType }));

const refusal = async (value: object) => {
  const error = await pipe.transform(value, payload).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(RpcException);
  return (error as RpcException).getError();
};

describe('RpcValidationPipe', () => {
  it('answers the command as instances of its classes, normalised, without fields it does not know', async () => {
    const value = (await pipe.transform(
      command({ votes: [{ ...votes(1)[0], extra: 1 }], extra: 'x' }),
      payload,
    )) as VoteCommand;
    expect(value).toBeInstanceOf(VoteCommand);
    expect(value.body).toBeInstanceOf(VoteDto);
    expect(value.body).toEqual({
      waitingRoomId: 'ABC123',
      userId: 'user-1',
      votes: [{ placeId: 'place-0', voteType: 'up' }],
    });
  });

  it('takes out the prototype keys JSON.parse makes own keys, at every depth', async () => {
    const hostile = JSON.parse(
      `{"roomId":"0b6f2a3e-1c0d-4b7e-9a55-6f3d2b1a0c9e","userId":"user-1","__proto__":{"roomId":1},` +
        `"body":{"waitingRoomId":"ABC123","userId":"user-1","constructor":{"name":"x"},` +
        `"votes":[{"placeId":"p","voteType":"up","__proto__":{"voteType":"sideways"},"prototype":1}]}}`,
    ) as object;
    const value = (await pipe.transform(hostile, payload)) as VoteCommand;
    expect(value).toBeInstanceOf(VoteCommand);
    expect(Object.keys(value.body.votes[0])).toEqual(['placeId', 'voteType']);
    expect(Object.getPrototypeOf(value.body.votes[0])).not.toHaveProperty('voteType', 'sideways');
    expect(Object.prototype.hasOwnProperty.call(value.body, 'constructor')).toBe(false);
  });

  it("refuses a bad ballot with the SPEC's messages, each once", async () => {
    expect(await refusal(command({ votes: votes(6) }))).toMatchObject({
      statusCode: 400,
      message: ROOM_MESSAGES.voteAllPlaces,
    });
    expect(await refusal(command({ votes: votes(2, 'sideways') }))).toMatchObject({
      statusCode: 400,
      message: 'voteType must be up or down',
    });
    expect(await refusal(command({ votes: [null, 'x'] }))).toMatchObject({ statusCode: 400 });
  });
});
