// Public addresses the load rotates through: well-known resolvers, CDNs and cloud ranges on several continents,
// IPv4 and IPv6, so the MMDB walk is not a single cached path.
export const PUBLIC_IPS: readonly string[] = [
  "8.8.8.8",
  "1.1.1.1",
  "9.9.9.9",
  "208.67.222.222",
  "64.6.64.6",
  "4.2.2.2",
  "151.101.1.69",
  "140.82.112.3",
  "13.107.42.14",
  "17.253.144.10",
  "104.16.132.229",
  "23.215.0.136",
  "31.13.72.36",
  "77.88.8.8",
  "80.80.80.80",
  "94.140.14.14",
  "101.101.101.101",
  "114.114.114.114",
  "180.76.76.76",
  "202.12.27.33",
  "41.203.18.34",
  "196.216.2.1",
  "200.160.0.8",
  "185.228.168.9",
  "193.0.14.129",
  "203.119.25.1",
  "2001:4860:4860::8888",
  "2606:4700:4700::1111",
  "2620:fe::fe",
  "2a02:6b8::feed:0ff",
  "2001:500:2f::f",
  "2a00:1450:4001:80b::200e",
];

/** The i-th address of the rotation. */
export function ipAt(i: number): string {
  return PUBLIC_IPS[i % PUBLIC_IPS.length]!;
}
