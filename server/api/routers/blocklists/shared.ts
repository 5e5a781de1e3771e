// What several procedures of the blocklists router share (schemas, helpers), or what other modules import from it.

export const MAX_BLOCKLIST_TARGETS = 20;
