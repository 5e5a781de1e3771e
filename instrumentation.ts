// Next.js calls register() once when the server starts, before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./server/startup/index");
    await startServer();
  }
}
