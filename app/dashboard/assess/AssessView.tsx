"use client";
// The assessment form and its answer. Runs the same metered procedure as POST /v1/assess; the answer can be saved
// as a report (the whole result, so it reopens with its reasons).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { AssessmentAnswer } from "../_components/AssessmentAnswer";
import { ErrorNote } from "../_components/ErrorNote";
import { inFormWords } from "../_components/field-words";
import { useTRPC } from "../_components/trpc";
import { ASSESS_LABELS, AssessForm, toAssessRequest, type AssessFields } from "./AssessForm";
import { SaveAsReport } from "./SaveAsReport";

export function AssessView({ cost }: { cost: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const assess = useMutation(
    trpc.assessment.assess.mutationOptions({
      // The meter on the overview reads the workspace usage: refresh it after a run.
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() }),
    }),
  );

  function run(fields: AssessFields) {
    const request = toAssessRequest(fields);
    if (typeof request === "string") {
      assess.reset();
      return setFormError(request);
    }
    setFormError(null);
    assess.mutate(request);
  }

  return (
    <>
      <AssessForm cost={cost} pending={assess.isPending} onRun={run} />
      {formError ? (
        <p className="error" role="alert">
          {formError}
        </p>
      ) : null}
      <ErrorNote error={assess.error} words={(m) => inFormWords(m, ASSESS_LABELS)} />
      {assess.isPending ? (
        <p className="muted" role="status">
          Assessing…
        </p>
      ) : null}
      {assess.data ? (
        <>
          <AssessmentAnswer result={assess.data} />
          <SaveAsReport result={assess.data} />
        </>
      ) : null}
    </>
  );
}
