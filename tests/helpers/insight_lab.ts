/**
 * The lab of the insight tests (`lib/sim/lab.ts`): five routers of mixed
 * releases in a ring (r1, r2, r3, r4) with a branch (r3 to r5), a diagonal
 * cable r2–r4 that is unplugged, r1 the border router (its ether1 faces an
 * ISP gateway outside the fleet, 203.0.113.1), a LAN behind r1 and one
 * behind r5. Static routes agree across the routers; r3 drops telnet to
 * r5's LAN in its forward chain; r2 and r3 send 10.99.0.0/24 to each other
 * (a loop); r4 blackholes 10.66.0.0/16; r1 forwards tcp/8080 on its WAN
 * address to a web server in r5's LAN.
 *
 * @module
 */
import type { Lab } from "../../lib/sim/lab.ts";

/** The ring-and-branch lab. */
export const RING_LAB: Lab = {
  routers: [
    {
      name: "r1",
      version: "7.16.2",
      lan: "10.1.0.1/24",
      addresses: [{ address: "203.0.113.2/30", interface: "ether1" }],
      up: ["ether1"],
      routes: [
        { dst: "0.0.0.0/0", gateway: "203.0.113.1" },
        { dst: "10.5.0.0/24", gateway: "10.0.12.2" },
        { dst: "10.0.23.0/30", gateway: "10.0.12.2" },
        { dst: "10.0.35.0/30", gateway: "10.0.12.2" },
        { dst: "10.0.34.0/30", gateway: "10.0.41.1" },
      ],
      commands: [
        "/ip firewall nat add chain=dstnat action=dst-nat protocol=tcp dst-port=8080 " +
        "in-interface-list=WAN to-addresses=10.5.0.20 to-ports=80 comment=web",
      ],
    },
    {
      name: "r2",
      version: "7.20.8",
      routes: [
        { dst: "0.0.0.0/0", gateway: "10.0.12.1" },
        { dst: "10.1.0.0/24", gateway: "10.0.12.1" },
        { dst: "10.5.0.0/24", gateway: "10.0.23.2" },
        { dst: "10.0.34.0/30", gateway: "10.0.23.2" },
        { dst: "10.0.35.0/30", gateway: "10.0.23.2" },
        { dst: "10.0.41.0/30", gateway: "10.0.12.1" },
        { dst: "10.99.0.0/24", gateway: "10.0.23.2", comment: "loop" },
      ],
    },
    {
      name: "r3",
      version: "7.12.2",
      routes: [
        { dst: "0.0.0.0/0", gateway: "10.0.23.1" },
        { dst: "10.1.0.0/24", gateway: "10.0.23.1" },
        { dst: "10.5.0.0/24", gateway: "10.0.35.2" },
        { dst: "10.0.12.0/30", gateway: "10.0.23.1" },
        { dst: "10.0.41.0/30", gateway: "10.0.34.2" },
        { dst: "10.99.0.0/24", gateway: "10.0.23.1", comment: "loop" },
      ],
      commands: [
        "/ip firewall filter add chain=forward action=drop protocol=tcp dst-port=23 " +
        'dst-address=10.5.0.0/24 comment="no telnet to the branch LAN"',
      ],
    },
    {
      name: "r4",
      version: "6.49.13",
      routes: [
        { dst: "0.0.0.0/0", gateway: "10.0.41.2" },
        { dst: "10.5.0.0/24", gateway: "10.0.34.1" },
        { dst: "10.66.0.0/16", blackhole: true },
      ],
    },
    {
      name: "r5",
      version: "7.24",
      lan: "10.5.0.1/24",
      routes: [{ dst: "0.0.0.0/0", gateway: "10.0.35.1" }],
    },
  ],
  links: [
    { a: ["r1", "ether2"], b: ["r2", "ether3"], subnet: "10.0.12.0/30" },
    { a: ["r2", "ether2"], b: ["r3", "ether3"], subnet: "10.0.23.0/30" },
    { a: ["r3", "ether2"], b: ["r4", "ether3"], subnet: "10.0.34.0/30" },
    { a: ["r4", "ether2"], b: ["r1", "ether3"], subnet: "10.0.41.0/30" },
    { a: ["r3", "ether4"], b: ["r5", "ether2"], subnet: "10.0.35.0/30" },
    { a: ["r2", "ether4"], b: ["r4", "ether4"], subnet: "10.0.24.0/30", down: true },
  ],
};
