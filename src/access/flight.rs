//! `dossier serve`: a read-only Arrow Flight SQL server over the lake's tables and the
//! analyst views, for BI tools and Flight SQL clients (ADBC, JDBC). Queries plan through
//! DataFusion with DDL, DML and `SET` refused; statements and prepared statements carry
//! their SQL in the ticket, so the server keeps no per-client state. The session is
//! rebuilt when a run appears or finishes, so the views follow the latest run.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use arrow_flight::encode::FlightDataEncoderBuilder;
use arrow_flight::error::FlightError;
use arrow_flight::flight_service_server::FlightServiceServer;
use arrow_flight::sql::metadata::{SqlInfoData, SqlInfoDataBuilder};
use arrow_flight::sql::server::FlightSqlService;
use arrow_flight::sql::{
    ActionClosePreparedStatementRequest, ActionCreatePreparedStatementRequest,
    ActionCreatePreparedStatementResult, CommandGetCatalogs, CommandGetDbSchemas,
    CommandGetSqlInfo, CommandGetTableTypes, CommandGetTables, CommandPreparedStatementQuery,
    CommandStatementQuery, ProstMessageExt, SqlInfo, TicketStatementQuery,
};
use arrow_flight::{
    Action, FlightDescriptor, FlightEndpoint, FlightInfo, IpcMessage, SchemaAsIpc, Ticket,
};
use datafusion::arrow::datatypes::Schema;
use datafusion::arrow::ipc::writer::IpcWriteOptions;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::logical_expr::LogicalPlan;
use datafusion::prelude::SessionContext;
use futures::{Stream, TryStreamExt, stream};
use prost::Message;
use tokio::sync::Mutex;
use tonic::{Request, Response, Status};

use crate::Error;
use crate::access::AccessError;
use crate::access::sql;
use crate::lake::Lake;

const CATALOG: &str = "datafusion";
const SCHEMA: &str = "public";

/// The server: the lake, the snapshot whose bundles back `records`, and the session
/// cached under the run manifests it was built from.
pub struct Server {
    lake: Lake,
    snapshot: String,
    session: Mutex<Option<(Vec<String>, SessionContext)>>,
    info: SqlInfoData,
}

type DoGetStream = Pin<Box<dyn Stream<Item = Result<arrow_flight::FlightData, Status>> + Send>>;

fn status(e: impl std::fmt::Display) -> Status {
    Status::invalid_argument(e.to_string())
}

fn internal(e: Error) -> Status {
    Status::internal(crate::error::chain(&e))
}

impl Server {
    pub fn new(lake: Lake, snapshot: String) -> Result<Server, Error> {
        let mut b = SqlInfoDataBuilder::new();
        b.append(SqlInfo::FlightSqlServerName, "dossier");
        b.append(SqlInfo::FlightSqlServerVersion, env!("CARGO_PKG_VERSION"));
        b.append(SqlInfo::FlightSqlServerArrowVersion, "1.3");
        b.append(SqlInfo::FlightSqlServerReadOnly, true);
        b.append(SqlInfo::FlightSqlServerSql, true);
        b.append(SqlInfo::FlightSqlServerSubstrait, false);
        b.append(SqlInfo::FlightSqlServerTransaction, 0i32);
        b.append(SqlInfo::FlightSqlServerCancel, false);
        let info = b.build().map_err(|e| Error::Internal(e.to_string()))?;
        Ok(Server {
            lake,
            snapshot,
            session: Mutex::new(None),
            info,
        })
    }

    /// The session over the lake, rebuilt when the run manifests changed.
    async fn ctx(&self) -> Result<SessionContext, Status> {
        let key: Vec<String> = sql::runs(&self.lake)
            .await
            .map_err(internal)?
            .into_iter()
            .map(|r| format!("{} {}", r.run_id, r.finished_at))
            .collect();
        let mut guard = self.session.lock().await;
        if let Some((k, ctx)) = guard.as_ref()
            && *k == key
        {
            return Ok(ctx.clone());
        }
        let ctx = sql::context(&self.lake, &self.snapshot, false, None)
            .await
            .map_err(internal)?;
        *guard = Some((key, ctx.clone()));
        Ok(ctx)
    }

    /// Plans one read-only statement; loads the bundle tables when it names them.
    async fn plan(&self, query: &str) -> Result<(SessionContext, LogicalPlan), Status> {
        let ctx = self.ctx().await?;
        sql::fresh_reads(&ctx);
        if sql::needs_bundles(query) && ctx.table_exist("records").ok() != Some(true) {
            sql::register_bundles(&ctx, &self.lake, &self.snapshot)
                .await
                .map_err(internal)?;
        }
        let mut stmts = sql::parse(query).map_err(|e| status(crate::error::chain(&e)))?;
        if stmts.len() != 1 {
            return Err(Status::invalid_argument(format!(
                "one statement per query, got {}",
                stmts.len()
            )));
        }
        let plan = ctx
            .state()
            .statement_to_plan(stmts.remove(0))
            .await
            .map_err(status)?;
        sql::read_only()
            .verify_plan(&plan)
            .map_err(|e| Status::permission_denied(format!("read-only server: {e}")))?;
        Ok((ctx, plan))
    }

    async fn stream(&self, query: &str) -> Result<Response<DoGetStream>, Status> {
        let (ctx, plan) = self.plan(query).await?;
        let schema = Arc::new(plan.schema().as_arrow().clone());
        let df = ctx.execute_logical_plan(plan).await.map_err(status)?;
        let batches = df
            .execute_stream()
            .await
            .map_err(status)?
            .map_err(|e| FlightError::ExternalError(Box::new(e)));
        let out = FlightDataEncoderBuilder::new()
            .with_schema(schema)
            .build(batches)
            .map_err(Status::from);
        Ok(Response::new(Box::pin(out)))
    }

    fn info_for(
        schema: &Schema,
        ticket: Vec<u8>,
        descriptor: FlightDescriptor,
    ) -> Result<Response<FlightInfo>, Status> {
        let info = FlightInfo::new()
            .try_with_schema(schema)
            .map_err(status)?
            .with_endpoint(FlightEndpoint::new().with_ticket(Ticket::new(ticket)))
            .with_descriptor(descriptor);
        Ok(Response::new(info))
    }

    fn one_batch<E: Into<FlightError> + Send + 'static>(
        schema: Arc<Schema>,
        batch: Result<RecordBatch, E>,
    ) -> Response<DoGetStream> {
        let batch = batch.map_err(Into::into);
        let out = FlightDataEncoderBuilder::new()
            .with_schema(schema)
            .build(stream::once(async move { batch }))
            .map_err(Status::from);
        Response::new(Box::pin(out))
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, Status> {
    std::str::from_utf8(bytes).map_err(|_| Status::invalid_argument("handle is not UTF-8"))
}

#[tonic::async_trait]
impl FlightSqlService for Server {
    type FlightService = Server;

    async fn get_flight_info_statement(
        &self,
        query: CommandStatementQuery,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let (_, plan) = self.plan(&query.query).await?;
        let ticket = TicketStatementQuery {
            statement_handle: query.query.into_bytes().into(),
        };
        Self::info_for(
            plan.schema().as_arrow(),
            ticket.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_statement(
        &self,
        ticket: TicketStatementQuery,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        self.stream(utf8(&ticket.statement_handle)?).await
    }

    async fn do_action_create_prepared_statement(
        &self,
        query: ActionCreatePreparedStatementRequest,
        _request: Request<Action>,
    ) -> Result<ActionCreatePreparedStatementResult, Status> {
        let (_, plan) = self.plan(&query.query).await?;
        let IpcMessage(schema) =
            SchemaAsIpc::new(plan.schema().as_arrow(), &IpcWriteOptions::default())
                .try_into()
                .map_err(status)?;
        Ok(ActionCreatePreparedStatementResult {
            prepared_statement_handle: query.query.into_bytes().into(),
            dataset_schema: schema,
            parameter_schema: Default::default(),
        })
    }

    async fn do_action_close_prepared_statement(
        &self,
        _query: ActionClosePreparedStatementRequest,
        _request: Request<Action>,
    ) -> Result<(), Status> {
        Ok(())
    }

    async fn get_flight_info_prepared_statement(
        &self,
        cmd: CommandPreparedStatementQuery,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let (_, plan) = self.plan(utf8(&cmd.prepared_statement_handle)?).await?;
        Self::info_for(
            plan.schema().as_arrow(),
            cmd.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_prepared_statement(
        &self,
        cmd: CommandPreparedStatementQuery,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        self.stream(utf8(&cmd.prepared_statement_handle)?).await
    }

    async fn get_flight_info_sql_info(
        &self,
        query: CommandGetSqlInfo,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let schema = query.clone().into_builder(&self.info).schema();
        Self::info_for(
            &schema,
            query.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_sql_info(
        &self,
        query: CommandGetSqlInfo,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        let b = query.into_builder(&self.info);
        Ok(Self::one_batch(b.schema(), b.build()))
    }

    async fn get_flight_info_catalogs(
        &self,
        query: CommandGetCatalogs,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let schema = query.into_builder().schema();
        Self::info_for(
            &schema,
            query.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_catalogs(
        &self,
        query: CommandGetCatalogs,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        let mut b = query.into_builder();
        b.append(CATALOG);
        Ok(Self::one_batch(b.schema(), b.build()))
    }

    async fn get_flight_info_schemas(
        &self,
        query: CommandGetDbSchemas,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let schema = query.clone().into_builder().schema();
        Self::info_for(
            &schema,
            query.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_schemas(
        &self,
        query: CommandGetDbSchemas,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        let mut b = query.into_builder();
        b.append(CATALOG, SCHEMA);
        Ok(Self::one_batch(b.schema(), b.build()))
    }

    async fn get_flight_info_tables(
        &self,
        query: CommandGetTables,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let schema = query.clone().into_builder().schema();
        Self::info_for(
            &schema,
            query.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_tables(
        &self,
        query: CommandGetTables,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        let tables = sql::tables(&self.ctx().await?).await.map_err(internal)?;
        let mut b = query.into_builder();
        for (name, view, schema) in tables {
            let kind = if view { "VIEW" } else { "TABLE" };
            b.append(CATALOG, SCHEMA, name, kind, &schema)
                .map_err(status)?;
        }
        Ok(Self::one_batch(b.schema(), b.build()))
    }

    async fn get_flight_info_table_types(
        &self,
        query: CommandGetTableTypes,
        request: Request<FlightDescriptor>,
    ) -> Result<Response<FlightInfo>, Status> {
        let schema = query.into_builder().schema();
        Self::info_for(
            &schema,
            query.as_any().encode_to_vec(),
            request.into_inner(),
        )
    }

    async fn do_get_table_types(
        &self,
        query: CommandGetTableTypes,
        _request: Request<Ticket>,
    ) -> Result<Response<DoGetStream>, Status> {
        let mut b = query.into_builder();
        b.append("TABLE");
        b.append("VIEW");
        Ok(Self::one_batch(b.schema(), b.build()))
    }

    async fn register_sql_info(&self, _id: i32, _result: &SqlInfo) {}
}

/// Binds the address (port 0 picks a free one), prints `grpc://ADDR` on stdout once the
/// server accepts connections, and serves until the process is stopped.
pub async fn serve(lake: Lake, snapshot: String, addr: SocketAddr) -> Result<(), Error> {
    let server = Server::new(lake, snapshot)?;
    // fail early on a lake the session cannot open
    server
        .ctx()
        .await
        .map_err(|s| AccessError::Session(s.message().to_string()))?;
    let bind = |source| AccessError::Bind { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(bind)?;
    let local = listener.local_addr().map_err(bind)?;
    println!("grpc://{local}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    tonic::transport::Server::builder()
        .add_service(FlightServiceServer::new(server))
        .serve_with_incoming_shutdown(
            tonic::transport::server::TcpIncoming::from(listener),
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        )
        .await
        .map_err(|source| {
            AccessError::Serve {
                addr: local,
                source,
            }
            .into()
        })
}
