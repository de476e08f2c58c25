// atento-serve: an HTTP translation server speaking the LibreTranslate API (app/serve/server.h).
#include "app/cli/cli.h"
#include "app/serve/server.h"

namespace {

// How requests are decoded: threads, workers, beams, precision and batching.
void add_decoding_options(CLI::App& app, atento::ServeArgs& args) {
  app.add_option("--threads", args.flags.threads,
                 "CPU threads of the decoder, over all workers (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--workers", args.workers,
                 "Decoding workers, each with its own batch (0 = one per CPU thread, one on "
                 "a GPU)")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  app.add_option("--beam", args.flags.beam,
                 "Beam of requests that name none (default: the model's)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-split", args.flags.no_split,
               "Translate each line of a request whole instead of sentence by sentence");
  app.add_option("--max-beam", args.max_beam, "Largest beam a request may ask for")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--precision", args.flags.precision,
                 "Decoding arithmetic: fp32, bf16, int8 or auto (default: the model's)")
      ->check(atento::precision_name());
  app.add_option("--max-batch", args.max_batch, "Most sentences decoded together")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_flag("--whole-batches{false}", args.continuous,
               "Decode greedy requests batch by batch (like beam requests) instead of letting "
               "them join a running batch between decoding steps");
  app.add_option("--batch-wait-ms", args.batch_wait_ms,
                 "Longest wait of a sentence for others to share its batch")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
}

// Connections served at once, and the bounds of one request and of the queue.
void add_limit_options(CLI::App& app, atento::ServeArgs& args) {
  app.add_option("--http-threads", args.http_threads, "Connections served at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--max-chars", args.max_chars, "Most characters in one request")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--max-strings", args.max_strings, "Most strings in one request's q array")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-queue", args.max_queued, "Most sentences waiting (503 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  app.add_option("--max-body", args.max_body, "Largest request body in bytes (413 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--read-timeout", args.read_timeout_s,
                 "Seconds a client may stay silent while sending a request")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
}

// Who may call the API, how often, and where calls are logged.
void add_access_options(CLI::App& app, atento::ServeArgs& args) {
  app.add_option("--cors-origin", args.cors_origins,
                 "Origin whose web pages may call the API (repeatable; * = any; default: none)")
      ->allow_extra_args(false);
  app.add_option("--api-keys", args.api_keys_file,
                 "File of API keys, one per line (# comments): translating requests need one")
      ->check(CLI::ExistingFile);
  app.add_option("--req-limit", args.req_limit,
                 "Most translating requests per client (IP) per minute (0 = no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000000));
  app.add_option("--access-log", args.access_log, "File the access log is appended to (- = stderr)")
      ->capture_default_str();
  app.add_flag("--no-access-log", args.no_access_log, "Write no access log");
}

}  // namespace

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Serve English→Spanish translation over HTTP (LibreTranslate API).",
                 "atento-serve"};
    atento::ServeArgs args;
    app.add_option("--model", args.model_dir, "Model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("--host", args.host, "Address to listen on (default: loopback only)")
        ->capture_default_str();
    app.add_option("--port", args.port, "TCP port (0 = any free port, printed on stderr)")
        ->capture_default_str()
        ->check(CLI::Range(0, 65535));
    add_decoding_options(app, args);
    add_limit_options(app, args);
    add_access_options(app, args);
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    return atento::run_server(args);
  });
}
