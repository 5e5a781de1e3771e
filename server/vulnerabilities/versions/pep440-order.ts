// PyPI orders versions by PEP 440 (epochs, pre-, post- and dev-releases, local labels), implemented by the
// library Renovate maintains for exactly this purpose.
import { compare, valid } from "@renovatebot/pep440";
import { UnparseableVersionError } from "./ecosystems";

export function comparePep440(a: string, b: string): number {
  if (!valid(a)) throw new UnparseableVersionError("pypi", a);
  if (!valid(b)) throw new UnparseableVersionError("pypi", b);
  return Math.sign(compare(a, b));
}

export function isValidPep440(version: string): boolean {
  return valid(version) !== null;
}
