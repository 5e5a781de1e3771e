// What several procedures of the abuse router share (schemas, helpers), or what other modules import from it.

export const NESTING =
  "The contact is the RDAP entity with the `abuse` role, wherever the registry nests it (inside the registrant or the registrar entity); when the registry names the entity by handle only, its own entity URL on the same RDAP server is fetched (listed in `followed_links`).";
