// Ranges that say who is behind an address rather than whose machine it is: platform egress, a VPN's exits,
// iCloud Private Relay, verified crawlers and uptime monitors. Shipped dated 2026-08-22; each refreshes from the
// list its operator publishes, or ships as a snapshot only where no list is published (said in `feeds status`).
import { rangeFeed } from "./ranges";

// Several published files make one list: the refresh downloads each (space-separated) and joins them.
const both = (...urls: string[]) => urls.join(" ");

export const EVIDENCE_FEEDS = [
  rangeFeed({ name: "platform-github", kind: "platform", provider: "GitHub", list: "GitHub meta API", defaultUrl: "https://api.github.com/meta", attribution: "GitHub, Inc., api.github.com/meta" }),
  rangeFeed({ name: "platform-facebook", kind: "platform", provider: "Meta (Facebook)", list: "Meta published egress ranges", defaultUrl: null, attribution: "Meta Platforms, Inc. (snapshot only: no stable list address)" }),
  rangeFeed({ name: "platform-telegram", kind: "platform", provider: "Telegram", list: "Telegram cidr.txt", defaultUrl: "https://core.telegram.org/resources/cidr.txt", attribution: "Telegram, core.telegram.org/resources/cidr.txt" }),
  rangeFeed({ name: "platform-twitter", kind: "platform", provider: "X (Twitter)", list: "X published ranges", defaultUrl: null, attribution: "X Corp. (snapshot only: no stable list address)" }),
  rangeFeed({ name: "vpn-protonvpn", kind: "vpn", provider: "Proton VPN", list: "Proton VPN logicals API (exit IPs)", defaultUrl: "https://api.protonvpn.ch/vpn/logicals", attribution: "Proton AG, api.protonvpn.ch/vpn/logicals" }),
  rangeFeed({ name: "relay-icloud-private-relay", kind: "relay", provider: "iCloud Private Relay", list: "Apple egress-ip-ranges.csv", defaultUrl: "https://mask-api.icloud.com/egress-ip-ranges.csv", attribution: "Apple Inc., mask-api.icloud.com/egress-ip-ranges.csv" }),
  rangeFeed({ name: "crawler-googlebot", kind: "crawler", provider: "Googlebot", list: "Googlebot googlebot.json", defaultUrl: "https://developers.google.com/static/search/apis/ipranges/googlebot.json", attribution: "Google LLC, developers.google.com (googlebot.json)" }),
  rangeFeed({ name: "crawler-bing", kind: "crawler", provider: "Bingbot", list: "Bingbot bingbot.json", defaultUrl: "https://www.bing.com/toolbox/bingbot.json", attribution: "Microsoft Corporation, bing.com/toolbox/bingbot.json" }),
  rangeFeed({ name: "crawler-duckduckbot", kind: "crawler", provider: "DuckDuckBot", list: "DuckDuckBot list", defaultUrl: "https://duckduckgo.com/duckduckbot.json", attribution: "Duck Duck Go, Inc., duckduckgo.com/duckduckbot.json" }),
  rangeFeed({ name: "crawler-duckassistbot", kind: "crawler", provider: "DuckAssistBot", list: "DuckAssistBot list", defaultUrl: "https://duckduckgo.com/duckassistbot.json", attribution: "Duck Duck Go, Inc., duckduckgo.com/duckassistbot.json" }),
  rangeFeed({
    name: "crawler-openai",
    kind: "crawler",
    provider: "OpenAI crawlers",
    list: "OpenAI gptbot.json, searchbot.json, chatgpt-user.json",
    defaultUrl: both("https://openai.com/gptbot.json", "https://openai.com/searchbot.json", "https://openai.com/chatgpt-user.json"),
    attribution: "OpenAI, openai.com (gptbot.json, searchbot.json, chatgpt-user.json)",
  }),
  rangeFeed({ name: "crawler-perplexity", kind: "crawler", provider: "PerplexityBot", list: "Perplexity bot list", defaultUrl: "https://www.perplexity.ai/perplexitybot.json", attribution: "Perplexity AI, perplexity.ai/perplexitybot.json" }),
  rangeFeed({ name: "monitor-pingdom", kind: "monitor", provider: "Pingdom", list: "Pingdom probe list", defaultUrl: both("https://my.pingdom.com/probes/ipv4", "https://my.pingdom.com/probes/ipv6"), attribution: "SolarWinds (Pingdom), my.pingdom.com/probes" }),
  rangeFeed({ name: "monitor-statuscake", kind: "monitor", provider: "StatusCake", list: "StatusCake probe list", defaultUrl: "https://app.statuscake.com/Workfloor/Locations.php?format=txt", attribution: "StatusCake, app.statuscake.com (probe locations)" }),
];
