/** Makes `folder` and any missing parents (`mode` for the new ones); a folder already there is fine. */
export function makeFolders(folder: string, mode?: number): void;
