#include "app/serve/server.h"

// The only translation unit that includes httplib.h (Debian's cpp-httplib is compiled: the
// header declares, libcpp-httplib.so defines).
#include <httplib.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>

#include "app/common/runtime.h"
#include "app/model_dir/model_dir.h"
#include "app/serve/attention_endpoint.h"
#include "app/serve/html_jobs.h"
#include "app/serve/libretranslate_api.h"
#include "app/serve/page_files.h"
#include "app/serve/request_batcher.h"
#include "app/serve/request_fields.h"
#include "app/serve/request_record.h"
#include "app/serve/segmented_jobs.h"
#include "app/serve/serve_operations.h"
#include "app/serve/stream_translator.h"
#include "app/translate/greedy_workers.h"
#include "app/translate/translator.h"
#include "data/utf8.h"

namespace atento {

namespace {

/// The decoding workers' job: encode, decode as one batch, detokenize, on `threads` intra-op
/// threads. An empty (or blank) line gives an empty translation without decoding, as in
/// atento-translate.
BatchTranslator model_translator(TrainedModel& trained, int64_t threads) {
  auto base = search_options(trained);
  return [&trained, base, threads](const std::vector<TranslationJob>& jobs) {
    // OpenMP's thread count belongs to each thread: set it on the worker that decodes.
    thread_local int64_t threads_set = 0;
    if (threads_set != threads) threads_set = (set_threads(threads), threads);
    auto search = base;
    search.beam = jobs.front().beam;
    search.n_best = jobs.front().n_best;
    std::vector<TranslationResult> results(jobs.size());
    std::vector<std::vector<int64_t>> sources;
    std::vector<size_t> active;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].text.find_first_not_of(" \t") == std::string::npos) {
        results[i].assign(1, "");
      } else {
        sources.push_back(trained.vocab->encode_source(jobs[i].text));  // cut at src_len
        active.push_back(i);
      }
    }
    if (sources.empty()) return results;
    auto rows = static_cast<int64_t>(sources.size()) * search.beam;
    auto hypotheses = translate_sources(trained, sources, search, rows);
    for (size_t k = 0; k < active.size(); ++k) {
      for (const auto& h : hypotheses[k]) {
        results[active[k]].push_back(trained.vocab->decode_target(h.tokens));
      }
      if (results[active[k]].empty()) results[active[k]].push_back("");
    }
    return results;
  };
}

/// Reason phrase of the statuses httplib answers by itself.
std::string status_text(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large: the request body exceeds the limit";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    default:
      return "HTTP error " + std::to_string(status);
  }
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_response(message), kJson);
}

/// The request's strings as the pieces the model translates (segmented_jobs.h), sentence by
/// sentence unless translate.split_sentences is off; one segmenter per connection thread.
SegmentedJobs request_pieces(const TranslateRequest& request, const TrainedModel& trained) {
  thread_local std::optional<Segmenter> segmenter;
  return segment_jobs(translation_jobs(request), *trained.vocab,
                      segmenter_for(segmenter, trained.config));
}

/// The JSON answer to `request`, translated through the batcher. Throws QueueFull.
std::string translate_json(const TranslateRequest& request, RequestBatcher& batcher,
                           TrainedModel& trained) {
  if (request.html) return translate_html_request(trained, request);  // html_jobs.h
  const SegmentedJobs segmented = request_pieces(request, trained);
  auto futures = batcher.submit(segmented.pieces);
  std::vector<TranslationResult> pieces;
  pieces.reserve(futures.size());
  for (auto& f : futures) pieces.push_back(f.get());
  size_t chars = 0;
  for (const auto& text : request.q) chars += data::utf8_length(text);
  note_translated(chars, segmented.pieces.size());  // the access log and metrics
  std::vector<std::string> warnings;
  if (segmented.cut > 0) {
    warnings.push_back(cut_warning(segmented.cut, trained.config.tokenizer.src_len));
  }
  return translate_response(request, join_pieces(segmented, pieces), warnings);
}

void handle_translate(const httplib::Request& req, httplib::Response& res, RequestBatcher& batcher,
                      const ApiLimits& limits, TrainedModel& trained) {
  try {
    const auto [body, content_type] = translate_body(req);  // JSON, form or multipart
    auto request = parse_translate_request(body, content_type, limits);
    res.set_content(translate_json(request, batcher, trained), kJson);
  } catch (const ApiError& e) {
    reply_error(res, e.status, e.what());
  } catch (const QueueFull& e) {
    res.set_header("Retry-After", "1");
    reply_error(res, 503, e.what());
  } catch (const std::exception& e) {
    std::cerr << "atento-serve: warning: translation failed: " << e.what() << "\n";
    reply_error(res, 500, std::string("translation failed: ") + e.what());
  }
}

/// POST /detect: the languages identified in one string.
void handle_detect(const httplib::Request& req, httplib::Response& res, const ApiLimits& limits) {
  try {
    const auto [body, content_type] = translate_body(req);  // JSON, form or multipart
    const std::string text = parse_detect_request(body, content_type, limits);
    res.set_content(detect_response(identify_language(text), limits.languages), kJson);
  } catch (const ApiError& e) {
    reply_error(res, e.status, e.what());
  }
}

/// JSON bodies for the answers httplib gives itself (404 no such route, 413 body too large,
/// 400 unreadable request…) and for anything a handler throws.
void set_error_handlers(httplib::Server& server) {
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = status_text(res.status);
    if (res.status == 404) message += ": " + req.method + " " + req.path;
    res.set_content(error_response(message), kJson);
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          what += std::string(": ") + e.what();
        } catch (...) {
        }
        reply_error(res, 500, what);
      });
}

void configure(httplib::Server& server, const ServeArgs& args, RequestBatcher& batcher,
               const ApiLimits& limits, TrainedModel& trained, ServeOperations& ops) {
  const size_t threads = std::max<size_t>(1, args.http_threads);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(args.max_body);
  server.set_read_timeout(args.read_timeout_s, 0);
  server.set_write_timeout(args.read_timeout_s, 0);
  // Idle keep-alive connections hold a thread and delay shutdown: keep them briefly.
  server.set_keep_alive_timeout(2);
  server.set_keep_alive_max_count(1000);
  server.set_tcp_nodelay(true);
  set_error_handlers(server);
  server.Get("/health", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"status":"ok"})", kJson);
  });
  server.Get("/languages", [&limits](const httplib::Request&, httplib::Response& res) {
    res.set_content(languages_response(limits.languages), kJson);
  });
  server.Post("/translate",
              ops.guarded_post([&batcher, &limits, &trained](const httplib::Request& req,
                                                             httplib::Response& res) {
                handle_translate(req, res, batcher, limits, trained);
              }));
  server.Post("/detect",
              ops.guarded_post([&limits](const httplib::Request& req, httplib::Response& res) {
                handle_detect(req, res, limits);
              }));
  FileTranslators files{
      [&batcher, &trained](const TranslateRequest& request) {
        return translated_text(translate_json(request, batcher, trained));
      },
      // .html uploads: translated whole, as format "html" translates a document (html_jobs.h).
      [&trained](const std::string& document, const std::string&, const std::string&) {
        return translate_html_document(trained, document, 0).html;
      }};
  ops.install(
      server, limits, [&batcher] { return batcher.queued(); }, std::move(files));
}

/// GET / and the other files of the page (page_files.h); POST /attention, its heatmap's data
/// (behind the same API keys and rate limit as /translate).
void serve_page(httplib::Server& server, AttentionEndpoint& attention, ServeOperations& ops) {
  for (const PageFile& file : page_files()) {
    const std::string route = std::regex_replace(file.path, std::regex(R"(\.)"), R"(\.)");
    server.Get(route, [&file](const httplib::Request&, httplib::Response& res) {
      res.set_content(file.body.data(), file.body.size(), file.content_type);
    });
  }
  server.Post("/attention",
              ops.guarded_post([&attention](const httplib::Request& req, httplib::Response& res) {
                JsonAnswer answer =
                    attention.answer(req.body, req.get_header_value("Content-Type"));
                res.status = answer.status;
                res.set_content(answer.body, kJson);
              }));
}

/// Binds (port 0: any free port) and listens with a backlog of SOMAXCONN; returns the port
/// bound. Throws when it cannot.
int bind_server(httplib::Server& server, const ServeArgs& args) {
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a second server would
  // share a port in use instead of failing. The socket is remembered for listen() below.
  auto listening = std::make_shared<socket_t>(INVALID_SOCKET);
  server.set_socket_options([listening](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    *listening = sock;
  });
  int port = args.port;
  if (port == 0) {
    port = server.bind_to_any_port(args.host);
  } else if (!server.bind_to_port(args.host, port)) {
    port = -1;
  }
  if (port <= 0) {
    throw std::runtime_error("cannot listen on " + args.host + ":" + std::to_string(args.port));
  }
  // Debian's httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, compiled into the
  // library): more clients connecting at once (64 in scripts/bench_serve.sh) overflowed it, and
  // their connections waited for a retransmission (1 s) or failed. Listening again on the bound
  // socket raises the backlog (Linux; the kernel caps it at net.core.somaxconn).
  if (*listening != INVALID_SOCKET && ::listen(*listening, SOMAXCONN) != 0) {
    throw std::runtime_error("cannot listen on " + args.host + ":" + std::to_string(port) + ": " +
                             std::strerror(errno));
  }
  return port;
}

}  // namespace

int run_server(const ServeArgs& args) {
  // SIGTERM and SIGINT are taken by one thread with sigwait: block them before any thread
  // (LibTorch's, httplib's, the batcher's) starts, so that every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  ServeOperations ops(args);  // bad --api-keys, --access-log, --cors-origin: exit 2 at once
  auto trained = load_trained_model(args.model_dir, with_flag_overrides({}, args.flags));
  word_lexicon(trained);  // for HTML requests: a malformed lexicon.tsv stops the start, not one
  ApiLimits limits{args.max_chars,
                   args.max_strings,
                   args.max_beam,
                   trained.config.translate.beam,
                   {trained.config.data.source_lang, trained.config.data.target_lang}};
  BatcherOptions batching;
  batching.max_batch = args.max_batch;
  batching.max_wait = std::chrono::microseconds(static_cast<int64_t>(args.batch_wait_ms * 1000));
  batching.max_queued = args.max_queued;
  batching.on_batch = ops.batch_observer();
  // On a CPU one single-threaded worker per decoder thread (greedy_workers.h), unless --workers.
  const auto threads =
      decoder_threads(trained.config.translate.threads, args.workers, trained.device);
  batching.workers = threads.workers;
  StepDecoderFactory stream;
  if (args.continuous) {
    stream = [&trained, per_worker = threads.per_worker] {
      return make_stream_translator(trained, per_worker);
    };
  }
  RequestBatcher batcher(model_translator(trained, threads.per_worker), batching, stream);

  httplib::Server server;
  configure(server, args, batcher, limits, trained, ops);
  AttentionEndpoint attention(trained, limits, threads.per_worker);
  serve_page(server, attention, ops);
  int port = bind_server(server, args);
  std::atomic<bool> signalled{false};
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    signalled = true;
    server.stop();  // stops accepting; listen_after_bind returns once requests in flight end
  });
  std::cerr << "atento-serve: listening on http://" << args.host << ":" << port << " (model "
            << args.model_dir << ", beam " << limits.default_beam << ", max batch "
            << args.max_batch << (args.continuous ? ", continuous batching" : "") << ", "
            << threads.workers << " decoding worker(s) of " << threads.per_worker << " thread(s)"
            << ops.summary() << ")" << std::endl;
  bool ok = server.listen_after_bind();
  if (!signalled) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  batcher.stop();
  std::cerr << "atento-serve: stopped (" << batcher.batches() << " batches or decoding steps, "
            << "largest " << batcher.largest_batch() << " sentences)" << std::endl;
  if (!ok && !signalled) throw std::runtime_error("the server stopped unexpectedly");
  return kExitOk;
}

}  // namespace atento
