import { Attribution } from "../_components/Attribution";
import { Gated } from "../_components/PlanGate";
import { procedureCost } from "../_components/procedure-cost";
import { DeviceView } from "./DeviceView";
import { EmbedGuide } from "./EmbedGuide";
import "./device.css";

export const metadata = { title: "Device signals · Dashboard" };
export const dynamic = "force-dynamic";

export default function DevicePage() {
  return (
    <>
      <h1>Device signals</h1>
      <p className="muted small">
        See what the device script finds in your own browser, as <code>POST /v1/device/check</code> diagnoses it:
        automation, consistency of its story, and how many accounts and addresses this device has been seen with.
      </p>
      <Gated capability="full" feature="Device checks">
        <DeviceView cost={procedureCost("device.check") ?? "1 unit"} />
      </Gated>
      <EmbedGuide />
      <Attribution />
    </>
  );
}
