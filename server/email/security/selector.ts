// What a DKIM selector may be as the service takes one (GET /email/security's `selectors`, the email_security
// monitor check and the dashboard's monitor form): labels of letters, digits, `_` and `-`, in lower case. Here alone
// and free of server imports, so the form's own check reads the same rule.
export const DKIM_SELECTOR = /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/;
