import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import RepLedgerCore
import RepLedgerService

/// Answers a request the HTTP parser could not read (a bad Content-Length,
/// a NUL in a header, headers over the limit, Transfer-Encoding with
/// Content-Length) with the API's JSON error, 431 for headers too large,
/// then closes: the framework's own answer is an empty 400. An error inside
/// a request's body is left to the request's handler, which answers it.
final class ParserErrorAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private var inRequest = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: inRequest = true
        case .end: inRequest = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !inRequest else {
            context.fireErrorCaught(error)
            return
        }
        let answer: APIError =
            parserError == .headerOverflow
            ? APIError(status: 431, code: "headersTooLarge", message: "the request's headers are too large")
            : .badRequest("the request is not valid HTTP/1.1 (\(Self.reason(parserError)))")
        let body = ByteBuffer(string: answer.json.rendered)
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        fields[.xContentTypeOptions] = "nosniff"
        fields[.cacheControl] = "no-store"
        fields[.contentSecurityPolicy] = LedgerRoutes.contentSecurityPolicy
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: answer.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    static func reason(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidContentLength: return "an invalid Content-Length"
        case .unexpectedContentLength: return "Content-Length where none may be"
        case .invalidHeaderToken, .invalidCharactersUsed: return "a character a header may not hold"
        case .invalidChunkSize: return "an invalid chunk size"
        default: return "\(error)"
        }
    }
}
