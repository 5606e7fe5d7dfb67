// Where a request really comes from. The socket's peer is the client unless it is one of the configured
// trusted proxies; only then is X-Forwarded-For read, from the right (the hops our proxies appended), skipping
// further trusted proxies — so a caller can never choose their own address by sending the header themselves.
import ipaddr from 'ipaddr.js'

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** Parses TRUSTED_PROXIES: addresses and CIDR ranges, plus `loopback` and `private` for the usual cases. */
export function parseTrustedProxies(list: string): Range[] {
  const ranges: Range[] = []
  for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (item === 'loopback') ranges.push(ipaddr.parseCIDR('127.0.0.0/8'), ipaddr.parseCIDR('::1/128'))
    else if (item === 'private')
      for (const cidr of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']) ranges.push(ipaddr.parseCIDR(cidr))
    else if (item.includes('/')) ranges.push(ipaddr.parseCIDR(item))
    else {
      const addr = ipaddr.parse(item)
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128])
    }
  }
  return ranges
}

/** The address in a canonical form (IPv4-mapped IPv6 as IPv4), or null when it is not an IP address. */
function normalise(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = raw.trim().replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(text)) return null
  return ipaddr.process(text)
}

const trusted = (addr: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]) =>
  ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits))

export function clientAddress(socketAddress: string, forwardedFor: string | null, ranges: Range[]): string {
  const peer = normalise(socketAddress)
  if (!peer) return socketAddress
  if (!ranges.length || !trusted(peer, ranges) || !forwardedFor) return peer.toString()
  const hops = forwardedFor.split(',')
  let client = peer
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalise(hops[i])
    // A malformed hop cannot be followed further; the last address we could trust stands.
    if (!hop) break
    client = hop
    if (!trusted(hop, ranges)) break
  }
  return client.toString()
}
