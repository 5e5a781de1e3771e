// Preloaded (node --require) into a child a test watches: each connection attempt to a Unix socket path is noted on
// stderr ("connect PATH"), so that the test can wait for the child to have reached a state instead of sleeping.
const net = require("node:net");
const connect = net.connect;
net.connect = net.createConnection = function (...args) {
  if (typeof args[0] === "string") process.stderr.write(`connect ${args[0]}\n`);
  return connect.apply(this, args);
};
