/** What the live hub needs of a transport (socket.io, plain WebSocket): its sockets, rooms and writes. */
import type { CardChangedData, Frame, PersonalEventMap, SocketEventMap } from '@auction/shared';
import type { TransportName } from '../metrics.js';

export interface Transport {
  readonly name: TransportName;
  /** This transport's open sockets (authenticated or not). */
  socketCount(): number;
  /**
   * The deliveries of one frame to its room, as slices of the room's sockets, each a call that writes
   * to one slice. `json` is the frame serialised once for every receiver of the room.
   */
  frameSlices(frame: Frame, json: string): Array<() => void>;
  sendToUser<K extends keyof PersonalEventMap>(userId: number, event: K, data: PersonalEventMap[K]): void;
  /** To every authenticated socket of this transport: catalogue events, and `live:resync`. */
  sendToAll<K extends keyof SocketEventMap>(event: K, data: SocketEventMap[K]): void;
  /** `catalogue:card` to the sockets of a `cards:<id>` room, as slices like a frame's (serialised once). */
  cardSlices(room: string, data: CardChangedData): Array<() => void>;
  /** Sockets of this transport in a room. */
  roomSize(room: string): number;
  close(): void;
}

/** Sockets of every transport in a room. */
export const roomSize = (transports: readonly Transport[], room: string): number => transports.reduce((n, t) => n + t.roomSize(room), 0);
