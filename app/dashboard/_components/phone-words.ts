// A phone number's line type as people say it (server/phone/parse.ts PHONE_TYPES): the assessment's answer and the
// account page read the same words.
export const PHONE_TYPE_WORDS: Record<string, string> = {
  mobile: "mobile",
  fixed_line: "landline",
  fixed_line_or_mobile: "landline or mobile (the plan cannot tell)",
  voip: "internet (VoIP)",
  toll_free: "toll-free",
  premium_rate: "premium rate",
  shared_cost: "shared cost",
  personal: "personal number",
  pager: "pager",
  uan: "company number (UAN)",
  voicemail: "voicemail",
  unknown: "unknown type",
};
