/**
 * The parsers of the on-router diagnostics against real RouterOS output:
 * torch, the quick sniffer and ip-scan tables, and the bandwidth test's
 * monitor block, each capture with its source. Whatever is not such a
 * table or block fails as an unparsable answer.
 */
import assert from "node:assert/strict";
import { parseBandwidth } from "../../lib/routeros/bandwidth_test.ts";
import { bitsPerSecond, lastTableFrame } from "../../lib/routeros/console_table.ts";
import { RouterOsError } from "../../lib/routeros/errors.ts";
import { parseScan } from "../../lib/routeros/ip_scan.ts";
import { parseSniffer } from "../../lib/routeros/sniffer_quick.ts";
import { parseTorch } from "../../lib/routeros/torch.ts";

const PAGER = "-- [Q quit|D dump|C-z pause]";

/**
 * RouterOS 6.49.13, `interface=ether1 src-address=0.0.0.0/0 port=any
 * ip-protocol=any`: a real capture in github.com/danikf/tik4net
 * tik4net.unittests/Cli/CliTorchTableTests.cs (@6d74e14a), whose runs of
 * blank columns the terminal had made thousands wide were narrowed there.
 */
const TORCH_6_49 = [
  "MAC-PROTOCOL    IP-PROTOCOL SRC-ADDRESS     SRC-PORT    DST-PORT              TX         RX TX-PACKETS RX-PACKETS",
  "ip              tcp         192.168.4.31    61224       23 (telnet)         0bps       0bps          0          0",
  "ip              tcp         192.168.4.31    63444       8291 (winbox)    3.5kbps    1664bps          1          2",
  "ip              tcp         192.168.4.83    44040       8291 (winbox)    3.6kbps    2.1kbps          1          2",
  "ip              udp         192.168.4.40    49153       6667                0bps    1712bps          0          1",
  "ip              udp         192.168.4.57    8001        8001                0bps    1920bps          0          1",
  "                                                                         7.2kbps    7.4kbps          2          6",
];

/** MikroTik's Torch page (manual.mikrotik.com/docs/diagnostics-monitoring-and-troubleshooting/torch): `/tool/torch bridge`. */
const TORCH_7_MANUAL =
  `Columns: MAC-PROTOCOL, IP-PROTOCOL, DSCP, SRC-ADDRESS, SRC-PORT, DST-ADDRESS, DST-PORT, TX, RX, TX-PACKETS, RX-PACKETS
MAC-PROTOCOL  IP-PROTOCOL  DSCP  SRC-ADDRESS    SRC-PORT  DST-ADDRESS   DST-PORT        TX         RX         TX-PACKETS  RX-PACKETS
ip            icmp            0  192.168.88.21            192.168.88.1                  197.3kbps  197.3kbps          48          48
ip            tcp             0  192.168.88.20     58910  192.168.88.1  2000 (btserv)   1152bps    1152bps             2           2
ip            udp             0  192.168.88.20      2257  192.168.88.1  2001 (glimpse)  2.0Mbps    0bps              172           0`;

/**
 * A RouterOS 7 console narrower than the table (`tool/torch ether1`, from a
 * public write-up of an IPsec hub-and-spoke lab): the `Columns:` line cut
 * with `>`, headers shortened to their values' width (`MA`, `T`, `R`).
 */
const TORCH_7_NARROW =
  `Columns: MAC-PROTOCOL, IP-PROTOCOL, DSCP, SRC-ADDRESS, DST-ADDRESS, TX, RX, TX>
MA  IP-PROTOCOL  DSCP  SRC-ADDRESS    DST-ADDRESS  TX       RX       T  R
ip  icmp            0  192.168.50.50  172.16.0.2   0bps     784bps   0  1
ip  ipsec-esp       0  50.0.0.50      150.0.0.150  1360bps  1360bps  1  1`;

Deno.test("torch 6.49.13 (tik4net capture): flows, ports with services, the totals row", () => {
  const frames = [
    PAGER,
    "        TX         RX TX-PACKETS RX-PACKETS",
    "      0bps       0bps          0          0",
    PAGER,
    ...TORCH_6_49,
    PAGER,
  ]
    .join("\r\n");
  const { flows, totals } = parseTorch(frames);
  assert.equal(flows.length, 5, "only the last frame counts");
  assert.deepEqual(flows[1], {
    mac_protocol: "ip",
    ip_protocol: "tcp",
    src_address: "192.168.4.31",
    src_port: 63444,
    dst_port: 8291,
    service: "winbox",
    tx_bps: 3500,
    rx_bps: 1664,
    tx_packets_per_s: 1,
    rx_packets_per_s: 2,
  });
  assert.equal(flows[3].dst_port, 6667);
  assert.deepEqual(totals, {
    tx_bps: 7200,
    rx_bps: 7400,
    tx_packets_per_s: 2,
    rx_packets_per_s: 6,
  });
});

Deno.test("torch 6.49.13 given only an interface (tik4net): one row, the totals", () => {
  const { flows, totals } = parseTorch(
    [
      "        TX         RX TX-PACKETS RX-PACKETS",
      "   7.2kbps    4.4kbps          2          5",
      PAGER,
    ].join("\n"),
  );
  assert.equal(totals, undefined);
  assert.deepEqual(flows, [{
    tx_bps: 7200,
    rx_bps: 4400,
    tx_packets_per_s: 2,
    rx_packets_per_s: 5,
  }]);
});

Deno.test("torch 7 (MikroTik's Torch page): empty port cells, right-aligned numbers", () => {
  const { flows } = parseTorch(TORCH_7_MANUAL);
  assert.equal(flows.length, 3);
  assert.deepEqual(flows[0], {
    mac_protocol: "ip",
    ip_protocol: "icmp",
    dscp: 0,
    src_address: "192.168.88.21",
    dst_address: "192.168.88.1",
    tx_bps: 197300,
    rx_bps: 197300,
    tx_packets_per_s: 48,
    rx_packets_per_s: 48,
  });
  assert.equal(flows[1].src_port, 58910);
  assert.equal(flows[1].dst_port, 2000);
  assert.equal(flows[1].service, "btserv");
  assert.equal(flows[2].tx_bps, 2_000_000);
  assert.equal(flows[2].tx_packets_per_s, 172);
});

Deno.test("torch 7 on a narrow console (a user capture): cut Columns line, shortened headers", () => {
  const { flows } = parseTorch(TORCH_7_NARROW);
  assert.deepEqual(flows[1], {
    mac_protocol: "ip",
    ip_protocol: "ipsec-esp",
    dscp: 0,
    src_address: "50.0.0.50",
    dst_address: "150.0.0.150",
    tx_bps: 1360,
    rx_bps: 1360,
    tx_packets_per_s: 1,
    rx_packets_per_s: 1,
  });
});

/**
 * RouterOS 7.23, `/tool/sniffer/quick port=443 ip-address=8.8.8.8`: a real
 * capture in a public write-up on DNS over HTTPS on RouterOS.
 */
const SNIFFER_7_23 =
  `Columns: INTERFACE, TIME, NUM, DIR, SRC-MAC, DST-MAC, SRC-ADDRESS, DST-ADDRESS, PROTOCOL, SIZE, CPU
INTERFACE  TIME    NUM  DIR  SRC-MAC            DST-MAC            SRC-ADDRESS          DST-ADDRESS          PROTOCOL  SIZE  CPU
ether1     13.06    37  <-   9C:69:B4:66:DB:BC  F4:1E:57:29:00:BB  8.8.8.8:443 (https)  10.185.95.186:46666  ip:tcp     135    1
ether1     13.06    38  ->   F4:1E:57:29:00:BB  9C:69:B4:66:DB:BC  10.185.95.186:46666  8.8.8.8:443 (https)  ip:tcp      66    1
ether1     13.061   39  ->   F4:1E:57:29:00:BB  9C:69:B4:66:DB:BC  10.185.95.186:46666  8.8.8.8:443 (https)  ip:tcp     119    2`;

/** MikroTik's Packet Sniffer page (help.mikrotik.com, quick mode): headers shortened on a narrow console. */
const SNIFFER_7_MANUAL =
  `Columns: INTERFace, TIME, NUm, DIr, SRC-MAC, DST-MAC, SRC-ADDRESS, DST-ADDRESS, PROTOCOl, SIze, Cpu, FP
INTERF  TIME    NU  DI  SRC-MAC            DST-MAC            SRC-ADDRESS     DST-ADDRESS     PROTOCO  SI  C  FP
ether7  35.472  79  <-  6C:3B:6B:ED:83:69  6C:3B:6B:ED:81:83  10.155.126.252  10.155.126.253  ip:icmp  70  7  no
ether1  36.6    85  <-  6C:3B:6B:ED:83:63  6C:3B:6B:ED:81:7D  172.24.24.2     172.24.24.1     ip:icmp  70  4  no`;

/** A 7.x capture (`/tool/sniffer/quick interface=ether3`, a public lab write-up): IPv6 with a port, no addresses. */
const SNIFFER_7_IPV6 = `Columns: INTERFACE, TIME, NUM, DIR, SRC-MAC, DST-MAC, SRC-ADDRESS
INTERFACE  TIME   NUM  DIR  SRC-MAC            DST-MAC            SRC-ADDRESS
ether3     0.449    1  ->   0C:5C:3D:F2:00:02  33:33:00:00:00:01  fe80::e5c:3dff:fef2:2:5678 (discovery)
ether3     0.449    3  ->   0C:5C:3D:F2:00:02  01:00:0C:CC:CC:CC`;

Deno.test("sniffer quick 7.23 (a real capture): addresses, ports, services, direction", () => {
  const p = parseSniffer(SNIFFER_7_23);
  assert.equal(p.length, 3);
  assert.deepEqual(p[0], {
    time_s: 13.06,
    num: 37,
    interface: "ether1",
    direction: "rx",
    src_mac: "9C:69:B4:66:DB:BC",
    dst_mac: "F4:1E:57:29:00:BB",
    src_address: "8.8.8.8",
    src_port: 443,
    dst_address: "10.185.95.186",
    dst_port: 46666,
    service: "https",
    protocol: "ip:tcp",
    size: 135,
  });
  assert.equal(p[1].direction, "tx");
  assert.equal(p[2].size, 119);
});

Deno.test("sniffer quick (MikroTik's page): shortened headers read by their full names", () => {
  const p = parseSniffer(SNIFFER_7_MANUAL);
  assert.deepEqual(p.map((x) => [x.interface, x.time_s, x.num, x.size, x.protocol]), [
    ["ether7", 35.472, 79, 70, "ip:icmp"],
    ["ether1", 36.6, 85, 70, "ip:icmp"],
  ]);
  assert.equal(p[1].src_address, "172.24.24.2");
  assert.equal(p[1].src_port, undefined);
});

Deno.test("sniffer quick 7.x: an IPv6 source keeps its address, a frame without one has none", () => {
  const p = parseSniffer(SNIFFER_7_IPV6);
  assert.equal(p[0].src_address, "fe80::e5c:3dff:fef2:2:5678", "no ports known without a protocol");
  assert.equal(p[0].service, "discovery");
  assert.equal(p[1].src_address, undefined);
  assert.equal(p[1].dst_mac, "01:00:0C:CC:CC:CC");
});

/** MikroTik's IP Scan page (help.mikrotik.com): `TIMe` over a column shortened to `TIM`, a host without a MAC. */
const SCAN_7_MANUAL = `Columns: ADDRESS, MAC-ADDRESS, TIMe, SNMP
  ADDRESS         MAC-ADDRESS        TIM  SNMP     
  10.155.126.1    E4:8D:8C:1C:D3:18  2ms  CCR1036-8G-2S+
  10.155.126.251                     2ms           
  10.155.126.151  E4:8D:8C:49:49:DB  1ms           
  10.155.126.153  6C:3B:6B:48:0E:8B  1ms  750Gr3         `;

/** A 7.x capture of `tool ip-scan address-range=192.168.1.0/24` (a public CTF write-up). */
const SCAN_7_BLOG = `Columns: ADDRESS, MAC-ADDRESS
ADDRESS        MAC-ADDRESS
192.168.1.1    52:54:00:12:34:56
192.168.1.42   6A:8F:E2:47:8D:B2`;

Deno.test("ip-scan 7 (MikroTik's page, a CTF write-up): hosts, times, SNMP names", () => {
  assert.deepEqual(parseScan(SCAN_7_MANUAL), [
    {
      address: "10.155.126.1",
      mac_address: "E4:8D:8C:1C:D3:18",
      time_ms: 2,
      snmp: "CCR1036-8G-2S+",
    },
    { address: "10.155.126.251", time_ms: 2 },
    { address: "10.155.126.151", mac_address: "E4:8D:8C:49:49:DB", time_ms: 1 },
    { address: "10.155.126.153", mac_address: "6C:3B:6B:48:0E:8B", time_ms: 1, snmp: "750Gr3" },
  ]);
  assert.deepEqual(parseScan(SCAN_7_BLOG)[1], {
    address: "192.168.1.42",
    mac_address: "6A:8F:E2:47:8D:B2",
  });
});

/**
 * MikroTik's Bandwidth Test page (help.mikrotik.com): `bandwidth-test
 * 10.0.0.32 duration=15s direction=both local-udp-tx-size=1000
 * protocol=udp remote-udp-tx-size=1000 user=admin`.
 */
const BTEST_UDP_OUT = `                status: done testing
              duration: 15s
            tx-current: 272.8Mbps
  tx-10-second-average: 200.3Mbps
      tx-total-average: 139.5Mbps
            rx-current: 169.6Mbps
  rx-10-second-average: 164.8Mbps
      rx-total-average: 117.0Mbps
          lost-packets: 373
           random-data: no
             direction: both
               tx-size: 1000
               rx-size: 1000`;

/** manual.mikrotik.com's Bandwidth test page: RouterOS 7's lines (connection count, CPU loads). */
const BTEST_TCP_7 = `                status: done testing
              duration: 11s
            tx-current: 50.3Mbps
  tx-10-second-average: 49.9Mbps
      tx-total-average: 49.9Mbps
            rx-current: 51.3Mbps
  rx-10-second-average: 49.8Mbps
      rx-total-average: 49.8Mbps
           random-data: no
             direction: both
      connection-count: 20
        local-cpu-load: 9%
       remote-cpu-load: 0%`;

Deno.test("bandwidth test (MikroTik's pages): the last block, rates in bits/s", () => {
  const running = BTEST_UDP_OUT.replace("done testing", "running").replace("15s", "14s");
  const r = parseBandwidth(`${running}\r\n\r\n${BTEST_UDP_OUT}\r\n`);
  assert.deepEqual(r, {
    status: "done testing",
    duration_s: 15,
    tx: { current_bps: 272_800_000, avg_10s_bps: 200_300_000, avg_total_bps: 139_500_000 },
    rx: { current_bps: 169_600_000, avg_10s_bps: 164_800_000, avg_total_bps: 117_000_000 },
    lost_packets: 373,
    random_data: false,
    direction: "both",
    tx_size: 1000,
    rx_size: 1000,
  });
  const t = parseBandwidth(BTEST_TCP_7);
  assert.equal(t.connection_count, 20);
  assert.equal(t.local_cpu_load_percent, 9);
  assert.equal(t.remote_cpu_load_percent, 0);
  assert.equal(t.tx?.current_bps, 50_300_000);
});

Deno.test("anything else fails closed: unparsable, or RouterOS's own error", () => {
  const unparsable = (f: () => unknown) =>
    assert.throws(f, (e) => e instanceof RouterOsError && e.kind === "unparsable");
  unparsable(() => parseTorch(""));
  unparsable(() => parseTorch("hello world"));
  unparsable(() =>
    parseTorch(TORCH_7_MANUAL.replace("197.3kbps  197.3kbps", "197.3kb    197.3kbps"))
  );
  unparsable(() => parseSniffer("INTERFACE TIME\nether1 soon"));
  unparsable(() => parseScan("ADDRESS\nnot-an-address"));
  unparsable(() => parseBandwidth("status done"));
  unparsable(() => parseBandwidth(""));
  // 7.17+ with the feature off (MikroTik's Device-mode page).
  assert.throws(
    () => parseBandwidth("failure: not allowed by device-mode"),
    (e) => e instanceof RouterOsError && e.kind === "failure",
  );
});

Deno.test("rates and table frames", () => {
  assert.equal(bitsPerSecond("0bps"), 0);
  assert.equal(bitsPerSecond("1664bps"), 1664);
  assert.equal(bitsPerSecond("3.5kbps"), 3500);
  assert.equal(bitsPerSecond("1.2Gbps"), 1_200_000_000);
  assert.equal(bitsPerSecond("12 Mbps"), undefined);
  assert.equal(lastTableFrame("no table here", ["ADDRESS"]), undefined);
});
