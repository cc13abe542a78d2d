export const HEARTBEAT_MS = 15_000;
/**
 * Each room beats in one of this many slices of the interval, so a gateway writes its heartbeats a thirtieth
 * at a time, every half second: all at once, the beats of many quiet streams held the event loop, and every
 * request and event that arrived meanwhile waited (docs/adr/0039).
 */
export const HEARTBEAT_SLICES = 30;

/**
 * Deals rooms to the slices of the heartbeat interval in turn, as they are added, and beats one slice per
 * tick: `beat` is called with that slice's rooms, so every room is beaten once an interval.
 */
export class Heartbeats<Room> {
  private readonly slices = Array.from({ length: HEARTBEAT_SLICES }, () => new Set<Room>());
  private readonly sliceOf = new Map<Room, Set<Room>>();
  private nextSlice = 0;
  private added = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly beat: (rooms: Iterable<Room>) => void) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), HEARTBEAT_MS / HEARTBEAT_SLICES);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  add(room: Room): void {
    const slice = this.slices[this.added++ % HEARTBEAT_SLICES];
    slice.add(room);
    this.sliceOf.set(room, slice);
  }

  remove(room: Room): void {
    this.sliceOf.get(room)?.delete(room);
    this.sliceOf.delete(room);
  }

  /** Beats the next slice. */
  tick(): void {
    const slice = this.slices[this.nextSlice];
    this.nextSlice = (this.nextSlice + 1) % HEARTBEAT_SLICES;
    this.beat(slice);
  }

  /** How many rooms each slice holds. */
  get sizes(): number[] {
    return this.slices.map((slice) => slice.size);
  }
}
