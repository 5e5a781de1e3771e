// The review queue's intake: an assessment whose final decision is review or challenge opens a case, written in
// the same statement as the assessment's event (./record.ts). Working the queue (list, assign, resolve) is
// server/cases/.

/** The decisions a person should look at. */
export const opensCase = (decision: string) => decision === "review" || decision === "challenge";
