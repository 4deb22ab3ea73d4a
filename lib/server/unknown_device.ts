/**
 * The error of a call that names no device, or one the inventory lacks, in
 * a module of its own: the request handlers that narrow it to a caller's
 * scope load before `initialize` is answered, and the devices with their
 * SSH pool and RouterOS clients load after it.
 *
 * @module
 */
import { echo } from "../echo.ts";
import { ArgumentError } from "../routeros/errors.ts";

/**
 * A call that names no device where several exist, or a title the
 * inventory does not have. Its message lists the valid titles; the server
 * narrows them to the caller's scope before it shows the error
 * ({@linkcode UnknownDeviceError.within}).
 */
export class UnknownDeviceError extends ArgumentError {
  /** The title the call gave (none: it gave no device). */
  readonly given: string | undefined;

  constructor(given: string | undefined, titles: readonly string[]) {
    super(
      given === undefined
        ? titles.length
          ? `give device: one of ${titles.join(", ")}`
          : "give device: no device is in your scope"
        : `unknown device ${echo(given)}; valid devices: ${titles.join(", ") || "none"}`,
      "device",
    );
    this.name = "UnknownDeviceError";
    this.given = given;
  }

  /** The same error naming only `titles` as the valid devices (a scoped caller's). */
  within(titles: readonly string[]): UnknownDeviceError {
    return new UnknownDeviceError(this.given, titles);
  }
}
