"use client";
// Runs /device.js in this very browser, then the same metered procedure as POST /v1/device/check, and shows the
// diagnosis: verdict first, then the checks and signals with their reasons.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { Diagnosis } from "./Diagnosis";
import { BusyButton } from "../_components/BusyButton";

type DeviceApi = { collect(): Promise<Record<string, unknown>> };

function loadScript(): Promise<DeviceApi> {
  const w = window as unknown as { ServiceDevice?: DeviceApi };
  if (w.ServiceDevice) return Promise.resolve(w.ServiceDevice);
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = "/device.js";
    s.async = true;
    s.onload = () =>
      w.ServiceDevice ? resolve(w.ServiceDevice) : reject(new Error("The device script did not start."));
    s.onerror = () => reject(new Error("The device script could not be loaded."));
    document.head.appendChild(s);
  });
}

export function DeviceView({ cost }: { cost: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [collectError, setCollectError] = useState<string | null>(null);
  const [collecting, setCollecting] = useState(false);
  const [signals, setSignals] = useState<Record<string, unknown> | null>(null);
  const check = useMutation(
    trpc.device.check.mutationOptions({
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() }),
    }),
  );

  async function run() {
    setCollectError(null);
    setCollecting(true);
    try {
      const device = await (await loadScript()).collect();
      setSignals(device);
      check.mutate({ device: device as never });
    } catch (err) {
      setCollectError((err as Error).message);
    } finally {
      setCollecting(false);
    }
  }

  return (
    <>
      <div className="card row">
        <BusyButton
          type="button"
          className="btn btn-primary"
          onClick={run}
          busy={collecting || check.isPending}
          busyLabel={collecting ? "Collecting signals…" : "Checking…"}
        >
          Check this browser
        </BusyButton>
        <span className="cost">{cost}</span>
      </div>
      {collectError ? (
        <p className="error" role="alert">
          {collectError}
        </p>
      ) : null}
      <ErrorNote error={check.error} />
      {check.data ? <Diagnosis diagnosis={check.data} /> : null}
      {signals ? (
        <details className="card">
          <summary>Signals the script sent</summary>
          <pre className="raw-json device-signals">{JSON.stringify(signals, null, 2)}</pre>
        </details>
      ) : null}
    </>
  );
}
