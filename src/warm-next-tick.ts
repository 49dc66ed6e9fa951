// Imported first by main.ts. V8 optimises Node's process.nextTick once, early in a process's
// life. When the startup (Fastify's plugin loader among others) has called it with mixed
// arguments before that, about one process start in four compiled two stores of the object it
// builds as runtime calls, about 2.5 us more on every request (a ready answer makes about ten
// nextTick calls) for the life of the process (docs/benchmarks.md). Calls of one kind first
// let it be optimised with both stores inline.
const nothing = (): void => {};
for (let i = 0; i < 20_000; i++) process.nextTick(nothing);
