/**
 * E's events (E.on, E.addListener, E.removeListener, E.removeAllListeners, E.emit): handlers run
 * from the idle loop with `this` the E object, as on the device; 'init' runs at boot and 'kill'
 * just before load() resets the interpreter.
 */
import type { SizeEstimator } from "./memory.ts";
import type { EventKit, FirmwareFn } from "./timers.ts";

export class Events {
  private readonly handlers = new Map<string, FirmwareFn[]>();

  /** thisArg gives the E object the handlers run on; uncaught reports what a 'kill' handler throws. */
  constructor(
    private readonly k: EventKit,
    private readonly thisArg: () => unknown,
    private readonly uncaught: (e: unknown) => void,
  ) {}

  /** The handlers of an event, as they stand now. */
  list(event: string): FirmwareFn[] {
    return [...(this.handlers.get(event) ?? [])];
  }

  /** Blocks the handlers take, for the memory estimate. */
  blocks(est: SizeEstimator): number {
    let n = 0;
    for (const list of this.handlers.values()) for (const fn of list) n += 1 + est.sizeOf(fn);
    return n;
  }

  api(): Record<string, FirmwareFn> {
    return {
      on: (event: unknown, fn: unknown) => this.on(String(event), fn),
      addListener: (event: unknown, fn: unknown) => this.on(String(event), fn),
      removeListener: (event: unknown, fn: unknown) => {
        const list = this.handlers.get(String(event));
        if (list)
          this.handlers.set(
            String(event),
            list.filter((f) => f !== fn),
          );
      },
      removeAllListeners: (event?: unknown) => {
        if (event === undefined) this.handlers.clear();
        else this.handlers.delete(String(event));
      },
      emit: (event: unknown, ...args: unknown[]) => {
        this.k.guard();
        this.emitLater(String(event), args);
      },
    };
  }

  /** Runs the event's handlers from the idle loop. */
  emitLater(event: string, args: unknown[]): void {
    this.k.at(this.k.bus.clock.now, () => {
      for (const fn of this.list(event)) this.k.call(fn, this.thisArg(), args, `an E.on('${event}') handler`);
    });
  }

  /** The 'kill' handlers, run at once (the interpreter is about to reset). */
  emitKill(): void {
    for (const fn of this.list("kill")) {
      try {
        Reflect.apply(fn, this.thisArg(), []);
      } catch (e) {
        this.uncaught(e);
      }
    }
  }

  private on(event: string, fn: unknown): void {
    this.k.guard();
    if (typeof fn !== "function") throw this.k.err(`E.on('${event}'): the handler must be a function`);
    if (!this.handlers.has(event)) this.handlers.set(event, []);
    this.handlers.get(event)!.push(fn as FirmwareFn);
  }
}
