"use client";
// The account to open, by user_id (or the email address of an account assessed without one).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useFieldProblems } from "../_components/field-problem";

export function UserSearch({ initial = "" }: { initial?: string }) {
  const router = useRouter();
  const [id, setId] = useState(initial);
  // Open with nothing to open says so beside the field, rather than doing nothing, and puts the keyboard there.
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState<number | null>(null);
  const { problemId, fieldProps } = useFieldProblems({ user_id: problem ?? undefined }, attempt);
  return (
    <form
      className="card form-row"
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!id.trim()) {
          setProblem("Enter the user id to open (or the email address of an account assessed without one).");
          setAttempt((n) => (n ?? 0) + 1);
          return;
        }
        router.push(`/dashboard/users/${encodeURIComponent(id.trim())}`);
      }}
    >
      <label>
        User id
        <input
          name="user_id"
          value={id}
          onChange={(e) => {
            setId(e.target.value);
            setProblem(null);
          }}
          placeholder="user_42"
          maxLength={256}
          {...fieldProps("user_id")}
          data-testid="user-search"
        />
      </label>
      <button type="submit" className="btn btn-primary">
        Open
      </button>
      {problem ? (
        <p className="error" id={problemId("user_id")} role="alert" data-testid="user-search-problem">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
