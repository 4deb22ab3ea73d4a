/**
 * How far a failed SSH connection got, told in words: no TCP answer is a
 * firewall or a host that is down (a case the machine's network cannot
 * stage for the end-to-end test), a silent service, a service that is not
 * SSH, and a server that closed before or after its banner. The tool layer
 * adds what to check on the router.
 */
import assert from "node:assert/strict";
import { closedError, newProgress, timeoutError } from "../../lib/ssh/connect_failure.ts";
import { errorText } from "../../lib/tools/errors.ts";

const WHO = 'device "r1" (10.0.0.1:22)';
const AT = "10.0.0.1:22";

Deno.test("connect failure: no TCP answer is a firewall or a host that is down", () => {
  const err = timeoutError(WHO, AT, 5, newProgress());
  assert.equal(err.kind, "no-answer");
  assert.match(err.message, /no answer to the TCP connection within 5 s/);
  assert.match(err.message, /a firewall on the way drops it, or the host is down/);
  assert.match(
    errorText(err, "router_list_ip_addresses", "r1"),
    /\/ip firewall filter, chain input/,
  );
});

Deno.test("connect failure: each stage after the TCP connection", () => {
  const connected = { ...newProgress(), connected: true };
  assert.match(timeoutError(WHO, AT, 5, connected).message, /connected, but no SSH banner/);
  const http = { ...connected, received: "HTTP/1.1 400 Bad Request\r\n\r\n" };
  assert.equal(timeoutError(WHO, AT, 5, http).kind, "not-ssh");
  assert.equal(closedError(WHO, AT, http).kind, "not-ssh");
  assert.equal(closedError(WHO, AT, connected).kind, "closed-before-banner");
  const banner = { ...connected, received: "SSH-2.0-ROSSSH\r\n" };
  assert.match(
    closedError(WHO, AT, banner).message,
    /"SSH-2\.0-ROSSSH"\) closed the connection during the key exchange/,
  );
  assert.match(
    timeoutError(WHO, AT, 5, banner).message,
    /did not finish the key exchange within 5 s/,
  );
  const authing = { ...banner, handshaken: true };
  assert.match(closedError(WHO, AT, authing).message, /during authentication/);
  // Lines before the banner are allowed (RFC 4253, 4.2).
  const greeted = { ...connected, received: "Welcome\r\nSSH-2.0-OpenSSH_9.6\r\n" };
  assert.equal(closedError(WHO, AT, greeted).kind, "handshake-failed");
  // A megabyte of answer is an excerpt.
  const flood = { ...connected, received: "x".repeat(256) };
  assert.ok(closedError(WHO, AT, flood).message.length < 300);
});
