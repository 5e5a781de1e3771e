"use client";
// The account to open, by user_id.
import { useRouter } from "next/navigation";
import { useState } from "react";

export function UserSearch({ initial = "" }: { initial?: string }) {
  const router = useRouter();
  const [id, setId] = useState(initial);
  return (
    <form
      className="card form-row"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) router.push(`/dashboard/users/${encodeURIComponent(id.trim())}`);
      }}
    >
      <label>
        User id
        <input
          name="user_id"
          value={id}
          onChange={(e) => setId(e.target.value)}
          placeholder="user_42"
          maxLength={256}
          data-testid="user-search"
        />
      </label>
      <button type="submit" className="btn btn-primary">
        Open
      </button>
    </form>
  );
}
